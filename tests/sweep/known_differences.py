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
import re

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


def nan_input_gradient(sample, diffs) -> bool:
    """Each gradient that differs differs first where the first tensor argument is NaN (a
    difference that names no element: the argument holds a NaN)."""
    grads = [detail for aspect, detail in diffs.items() if aspect.startswith("grad[")]
    arg = next((a for a in sample.args if isinstance(a, T)), None)
    if not grads or arg is None:
        return False
    data = arg.data(salt_of(f"{sample.args.index(arg) + 1}:{arg.render()}")).ravel()
    if data.dtype.kind != "f":
        return False
    at = [re.match(r"value at (\d+):", detail) for detail in grads]
    return all(np.isnan(data[int(m.group(1))]) if m else np.isnan(data).any() for m in at)


# Activations whose CPU backward kernel decides a NaN input's side differently in its
# vectorized body and in its scalar tail (hardtanh's gradient at NaN is 0 in a full vector,
# g in the tail; ELU's differs between float32 and float64 too).
KINKED = ("F.hardtanh", "F.hardtanh_", "F.relu6", "F.hardshrink", "F.softshrink", "F.elu",
          "F.elu_", "F.celu", "F.celu_", "F.selu", "F.selu_", "F.hardswish", "F.hardswish_")

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
    (KINKED, nan_input_gradient, "grad[[]*",
     "the gradient at a NaN input depends on whether torch's CPU kernel reaches the element in "
     "its vectorized body or its scalar tail (its position in the tensor), and on the dtype"),
    ("*", to_integer, "value[[]*", "casting NaN, infinity or out-of-range floats to an integer "
                                   "is undefined (C); torch gives the CPU's conversion"),
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
F.adaptive_avg_pool2d | F.adaptive_avg_pool2d(f64[1,2,5,5], 1) | grad_fn[0] | grad_fn[0]: symgrad AdaptiveAvgPool2DBackward0, torch MeanBackward1
F.avg_pool1d | F.avg_pool1d(i64[1,2,5], 2) | error:extra | error:extra: symgrad raises RuntimeError: avg_pool of int64 tensors is not supported
F.avg_pool2d | F.avg_pool2d(f16[1,2,5,5], 2) | value[0] | value[0]: at 1: symgrad -0.14624, torch -0.146
F.avg_pool2d | F.avg_pool2d(i64[1,2,5,5], 2) | error:extra | error:extra: symgrad raises RuntimeError: avg_pool of int64 tensors is not supported
F.batch_norm | F.batch_norm(f32[4,3], f64[3]~g, f64[3]:p~g) | error:missing | error:missing: torch raises RuntimeError: mixed dtype (CPU): expect parameter to have scalar type of Float
F.bilinear | F.bilinear(i32[2,3], i32[2,4], i32[5,3,4]) | dtype[0] | dtype[0]: symgrad int64, torch int32
F.bilinear | F.bilinear(u8[2,3], u8[2,4], u8[5,3,4]) | dtype[0] value[0] | dtype[0]: symgrad int64, torch uint8
F.binary_cross_entropy | F.binary_cross_entropy(b8[2,3]:01, b8[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "binary_cross_entropy" not implemented for 'Bool'
F.binary_cross_entropy | F.binary_cross_entropy(f64[16]:e, f64[16]:01) | error:missing | error:missing: torch raises RuntimeError: all elements of input should be between 0 and 1
F.binary_cross_entropy | F.binary_cross_entropy(f64[2,3]:01, f64[2,3]:01, weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'binary_cross_entropy' is not differentiable with respect to argume
F.binary_cross_entropy | F.binary_cross_entropy(f64[2,3]:n, f64[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: all elements of input should be between 0 and 1
F.binary_cross_entropy | F.binary_cross_entropy(i32[2,3]:01, i32[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "binary_cross_entropy" not implemented for 'Int'
F.binary_cross_entropy | F.binary_cross_entropy(i64[2,3]:01, i64[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "binary_cross_entropy" not implemented for 'Long'
F.binary_cross_entropy | F.binary_cross_entropy(u8[2,3]:01, u8[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "binary_cross_entropy" not implemented for 'Byte'
F.binary_cross_entropy_with_logits | F.binary_cross_entropy_with_logits(b8[2,3]:n, b8[2,3]:01) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.binary_cross_entropy_with_logits | F.binary_cross_entropy_with_logits(f64[2,3]:n, f64[2,3]:01, pos_weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'binary_cross_entropy_with_logits' is not differentiable with respe
F.binary_cross_entropy_with_logits | F.binary_cross_entropy_with_logits(f64[2,3]:n, f64[2,3]:01, weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'binary_cross_entropy_with_logits' is not differentiable with respe
F.cosine_embedding_loss | F.cosine_embedding_loss(u8[4,3], u8[4,3], u8[4]:pm1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
F.cosine_similarity | F.cosine_similarity(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected common dtype to be floating point, yet common dtype is Bool
F.cosine_similarity | F.cosine_similarity(f16[2,3], f16[2,3]) | value[0] | value[0]: at 0: symgrad 0.075989, torch 0.075806
F.cosine_similarity | F.cosine_similarity(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected common dtype to be floating point, yet common dtype is Int
F.cosine_similarity | F.cosine_similarity(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected common dtype to be floating point, yet common dtype is Long
F.cosine_similarity | F.cosine_similarity(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected common dtype to be floating point, yet common dtype is Byte
F.cross_entropy | F.cross_entropy(b8[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Bool'
F.cross_entropy | F.cross_entropy(f64[4,3], f64[4]:idx3) | error:class | error:class: symgrad ValueError, torch RuntimeError
F.cross_entropy | F.cross_entropy(f64[4,3], i64[4]:idx3, ignore_index=1, reduction='mean', weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'nll_loss_forward' is not differentiable with respect to argument '
F.cross_entropy | F.cross_entropy(f64[4,3], i64[4]:idx3, label_smoothing=0.1, ignore_index=2, weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'nll_loss_forward' is not differentiable with respect to argument '
F.cross_entropy | F.cross_entropy(f64[4,3], i64[4]:idx3, weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'nll_loss_forward' is not differentiable with respect to argument '
F.cross_entropy | F.cross_entropy(i32[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Int'
F.cross_entropy | F.cross_entropy(i64[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Long'
F.cross_entropy | F.cross_entropy(u8[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Byte'
F.dropout | F.dropout(b8[3,4]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Bool
F.dropout | F.dropout(i32[3,4]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Int
F.dropout | F.dropout(i64[3,4]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
F.dropout | F.dropout(u8[3,4]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Byte
F.elu | F.elu(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "elu_cpu" not implemented for 'Bool'
F.elu | F.elu(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.elu | F.elu(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.elu | F.elu(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.elu | F.elu(i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "elu_cpu" not implemented for 'Int'
F.elu | F.elu(i64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "elu_cpu" not implemented for 'Long'
F.elu | F.elu(i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "elu_cpu" not implemented for 'Long'
F.elu | F.elu(u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "elu_cpu" not implemented for 'Byte'
F.embedding | F.embedding(i32[4]:idx5, f64[5,3]) | error:extra | error:extra: symgrad raises RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar ty
F.fold | F.fold(i32[1,8,9], (4, 4), 2) | error:missing | error:missing: torch raises RuntimeError: "col2im_out_cpu" not implemented for 'Int'
F.fold | F.fold(i64[1,8,9], (4, 4), 2) | error:missing | error:missing: torch raises RuntimeError: "col2im_out_cpu" not implemented for 'Long'
F.fold | F.fold(u8[1,8,9], (4, 4), 2) | error:missing | error:missing: torch raises RuntimeError: "col2im_out_cpu" not implemented for 'Byte'
F.gaussian_nll_loss | F.gaussian_nll_loss(b8[2,3], b8[2,3], b8[2,3]:p) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gaussian_nll_loss | F.gaussian_nll_loss(i32[2,3], i32[2,3], i32[2,3]:p) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type int
F.gaussian_nll_loss | F.gaussian_nll_loss(i64[2,3], i64[2,3], i64[2,3]:p) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type long int
F.gaussian_nll_loss | F.gaussian_nll_loss(u8[2,3], u8[2,3], u8[2,3]:p) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type unsigned char
F.gelu | F.gelu(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "GeluKernelImpl" not implemented for 'Bool'
F.gelu | F.gelu(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gelu | F.gelu(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gelu | F.gelu(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gelu | F.gelu(f16[16]:e) | value[0] | value[0]: at 8: symgrad inf, torch nan
F.gelu | F.gelu(f16[2,3]) | value[0] | value[0]: at 0: symgrad -0.099854, torch -0.099731
F.gelu | F.gelu(f32[16]:e) | value[0] | value[0]: at 9: symgrad inf, torch nan
F.gelu | F.gelu(f32[2,3]~g, out=i64[0]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gelu | F.gelu(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gelu | F.gelu(f64[2,3]~g, out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gelu | F.gelu(f64[2,3]~g, out=f64[2,3]~g) | error:extra | error:extra: symgrad raises TypeError: gelu() got an unexpected keyword argument 'out'
F.gelu | F.gelu(i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "GeluKernelImpl" not implemented for 'Int'
F.gelu | F.gelu(i64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "GeluKernelImpl" not implemented for 'Long'
F.gelu | F.gelu(i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "GeluKernelImpl" not implemented for 'Long'
F.gelu | F.gelu(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.gelu | F.gelu(u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "GeluKernelImpl" not implemented for 'Byte'
F.group_norm | F.group_norm(f16[2,4,3], 2) | value[0] | value[0]: at 17: symgrad 0.24182, torch 0.24133
F.group_norm | F.group_norm(f32[2,4,3], 2, f64[4]) | error:missing | error:missing: torch raises RuntimeError: mixed dtype (CPU): expect parameter to have scalar type of Float
F.group_norm | F.group_norm(f64[2,4,3], 0) | error:class | error:class: symgrad RuntimeError, torch ZeroDivisionError
F.hardshrink | F.hardshrink(f32[2,3]~g, out=i64[0]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.hardshrink | F.hardshrink(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.hardshrink | F.hardshrink(f64[2,3]~g, out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.hardshrink | F.hardshrink(f64[2,3]~g, out=f64[2,3]~g) | error:extra | error:extra: symgrad raises TypeError: hardshrink() got an unexpected keyword argument 'out'
F.hardshrink | F.hardshrink(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.hardtanh | F.hardtanh(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Bool inputs not supported for hardtanh
F.hardtanh | F.hardtanh(u8[2,3]) | error:class | error:class: symgrad OverflowError, torch RuntimeError
F.hardtanh_ | F.hardtanh_(u8[2,3]) | error:class | error:class: symgrad OverflowError, torch RuntimeError
F.hinge_embedding_loss | F.hinge_embedding_loss(b8[4], b8[4]:pm1) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with two bool tensors is not supported. Use the `
F.hinge_embedding_loss | F.hinge_embedding_loss(i32[4], i32[4]:pm1) | error:missing | error:missing: torch raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.hinge_embedding_loss | F.hinge_embedding_loss(i64[4], i64[4]:pm1) | error:missing | error:missing: torch raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.hinge_embedding_loss | F.hinge_embedding_loss(u8[4], u8[4]:pm1) | error:class | error:class: symgrad OverflowError, torch RuntimeError
F.huber_loss | F.huber_loss(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.huber_loss | F.huber_loss(f64[2,3], f64[2,3], None, None, 'sum') | error:class | error:class: symgrad TypeError, torch AttributeError
F.kl_div | F.kl_div(b8[2,3], b8[2,3]:prob) | error:missing | error:missing: torch raises RuntimeError: kl_div: Integral inputs not supported.
F.kl_div | F.kl_div(i32[2,3], i32[2,3]:prob) | error:missing | error:missing: torch raises RuntimeError: kl_div: Integral inputs not supported.
F.kl_div | F.kl_div(i64[2,3], i64[2,3]:prob) | error:missing | error:missing: torch raises RuntimeError: kl_div: Integral inputs not supported.
F.kl_div | F.kl_div(u8[2,3], u8[2,3]:prob) | error:missing | error:missing: torch raises RuntimeError: kl_div: Integral inputs not supported.
F.l1_loss | F.l1_loss(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.layer_norm | F.layer_norm(f32[2,3], (3,), f64[3]) | error:missing | error:missing: torch raises RuntimeError: mixed dtype (CPU): expect parameter to have scalar type of Float
F.leaky_relu | F.leaky_relu(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "leaky_relu_cpu" not implemented for 'Bool'
F.leaky_relu | F.leaky_relu(i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "leaky_relu_cpu" not implemented for 'Int'
F.leaky_relu | F.leaky_relu(i64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "leaky_relu_cpu" not implemented for 'Long'
F.leaky_relu | F.leaky_relu(i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "leaky_relu_cpu" not implemented for 'Long'
F.leaky_relu | F.leaky_relu(u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "leaky_relu_cpu" not implemented for 'Byte'
F.linear | F.linear(f64[2,3], f64[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: mat2 must be a matrix, got 1-D tensor
F.linear | F.linear(f64[2,3], f64[4,3], f32[4]) | error:missing | error:missing: torch raises RuntimeError: self and mat2 must have the same dtype, but got Float and Double
F.linear | F.linear(f64[3], f64[4,3], f64[4]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ViewBackward0
F.log_softmax | F.log_softmax(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Bool'
F.log_softmax | F.log_softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Int'
F.log_softmax | F.log_softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Long'
F.log_softmax | F.log_softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Byte'
F.logsigmoid | F.logsigmoid(f32[2,3]~g, out=i64[0]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.logsigmoid | F.logsigmoid(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.logsigmoid | F.logsigmoid(f64[2,3]~g, out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.logsigmoid | F.logsigmoid(f64[2,3]~g, out=f64[2,3]~g) | error:extra | error:extra: symgrad raises TypeError: logsigmoid() got an unexpected keyword argument 'out'
F.logsigmoid | F.logsigmoid(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.margin_ranking_loss | F.margin_ranking_loss(b8[4], b8[4], b8[4]:pm1) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.margin_ranking_loss | F.margin_ranking_loss(i32[4], i32[4], i32[4]:pm1) | error:extra | error:extra: symgrad raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.margin_ranking_loss | F.margin_ranking_loss(i64[4], i64[4], i64[4]:pm1) | error:extra | error:extra: symgrad raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.margin_ranking_loss | F.margin_ranking_loss(u8[4], u8[4], u8[4]:pm1) | error:extra | error:extra: symgrad raises RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating poin
F.max_pool1d | F.max_pool1d(b8[1,2,5], 2) | error:class | error:class: symgrad ValueError, torch RuntimeError
F.max_pool1d | F.max_pool1d(i32[1,2,5], 2) | error:missing | error:missing: torch raises RuntimeError: "max_pool1d_impl" not implemented for 'Int'
F.max_pool1d | F.max_pool1d(i64[1,2,5], 2) | error:missing | error:missing: torch raises RuntimeError: "max_pool1d_impl" not implemented for 'Long'
F.max_pool1d | F.max_pool1d(u8[1,2,5], 2) | error:missing | error:missing: torch raises RuntimeError: "max_pool1d_impl" not implemented for 'Byte'
F.max_pool2d | F.max_pool2d(b8[1,2,5,5], 2) | error:class | error:class: symgrad ValueError, torch RuntimeError
F.mse_loss | F.mse_loss(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.multi_margin_loss | F.multi_margin_loss(f16[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "multi_margin_loss_cpu_kernel" not implemented for 'Half'
F.multi_margin_loss | F.multi_margin_loss(f64[4,3], i64[4]:idx3, weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'multi_margin_loss' is not differentiable with respect to argument
F.nll_loss | F.nll_loss(b8[4,3], i64[4]:idx3) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.nll_loss | F.nll_loss(f64[4,3]:n, i64[4]:idx3, ignore_index=1, reduction='mean', weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'nll_loss_forward' is not differentiable with respect to argument '
F.nll_loss | F.nll_loss(f64[4,3]:n, i64[4]:idx3, weight=f64[3]:p) | error:missing | error:missing: torch raises RuntimeError: The function 'nll_loss_forward' is not differentiable with respect to argument '
F.nll_loss | F.nll_loss(i32[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "nll_loss_out_frame" not implemented for 'Int'
F.nll_loss | F.nll_loss(i64[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "nll_loss_out_frame" not implemented for 'Long'
F.nll_loss | F.nll_loss(u8[4,3], i64[4]:idx3) | error:missing | error:missing: torch raises RuntimeError: "nll_loss_out_frame" not implemented for 'Byte'
F.normalize | F.normalize(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got Bo
F.normalize | F.normalize(f64[2,3], 0.0) | error:extra | error:extra: symgrad raises ZeroDivisionError: float division by zero
F.normalize | F.normalize(i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got In
F.normalize | F.normalize(i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got Lo
F.normalize | F.normalize(u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got By
F.pad | F.pad(f64[1,2,3], (1, 1), 'circular') | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch CopySlices
F.pairwise_distance | F.pairwise_distance(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.pdist | F.pdist(f16[4,3]) | error:missing | error:missing: torch raises RuntimeError: "pdist" not implemented for 'Half'
F.poisson_nll_loss | F.poisson_nll_loss(b8[2,3], b8[2,3]:p) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
F.relu | F.relu(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Boolean inputs not supported for relu
F.relu | F.relu(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
F.relu | F.relu(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
F.relu | F.relu(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
F.relu6 | F.relu6(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Bool inputs not supported for hardtanh
F.relu_ | F.relu_(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Boolean inputs not supported for relu
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f16[2,3,4], f16[2,5,4], f16[2,5,4]) | value[0] | value[0]: at 19: symgrad -0.021011, torch -0.02063
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f64[2,0,4], f64[2,5,4], f64[2,5,4]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch AddBackward0
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f64[2,2,3,4], f64[2,2,5,4], f64[2,2,5,4]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ScaledDotProductFlashAttentionForCpuBackward0
F.scaled_dot_product_attention | F.scaled_dot_product_attention(f64[2,3,4], f64[2,0,4], f64[2,0,4]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch AddBackward0
F.sigmoid | F.sigmoid(2.5) | error:missing | error:missing: torch raises AttributeError: 'float' object has no attribute 'sigmoid'
F.sigmoid | F.sigmoid([1.0, -2.0]) | error:missing | error:missing: torch raises AttributeError: 'list' object has no attribute 'sigmoid'
F.silu | F.silu(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "silu_cpu" not implemented for 'Bool'
F.silu | F.silu(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: silu does not support automatic differentiation for outputs with complex dtype.
F.silu | F.silu(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: silu does not support automatic differentiation for outputs with complex dtype.
F.silu | F.silu(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: silu does not support automatic differentiation for outputs with complex dtype.
F.silu | F.silu(i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "silu_cpu" not implemented for 'Int'
F.silu | F.silu(i64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "silu_cpu" not implemented for 'Long'
F.silu | F.silu(i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "silu_cpu" not implemented for 'Long'
F.silu | F.silu(u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "silu_cpu" not implemented for 'Byte'
F.smooth_l1_loss | F.smooth_l1_loss(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.smooth_l1_loss | F.smooth_l1_loss(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "smooth_l1_cpu" not implemented for 'Int'
F.smooth_l1_loss | F.smooth_l1_loss(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "smooth_l1_cpu" not implemented for 'Long'
F.smooth_l1_loss | F.smooth_l1_loss(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "smooth_l1_cpu" not implemented for 'Byte'
F.soft_margin_loss | F.soft_margin_loss(b8[4], b8[4]:pm1) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.soft_margin_loss | F.soft_margin_loss(i32[4], i32[4]:pm1) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Int
F.soft_margin_loss | F.soft_margin_loss(i64[4], i64[4]:pm1) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
F.soft_margin_loss | F.soft_margin_loss(u8[4], u8[4]:pm1) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Byte
F.softmax | F.softmax(b8[2,3], 1) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softmax | F.softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Int'
F.softmax | F.softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Long'
F.softmax | F.softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Byte'
F.softmin | F.softmin(b8[2,3], 1) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softmin | F.softmin(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Int'
F.softmin | F.softmin(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Long'
F.softmin | F.softmin(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Byte'
F.softplus | F.softplus(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "softplus_cpu" not implemented for 'Bool'
F.softplus | F.softplus(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softplus | F.softplus(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softplus | F.softplus(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softplus | F.softplus(f32[2,3]~g, out=i64[0]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softplus | F.softplus(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softplus | F.softplus(f64[2,3]~g, out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softplus | F.softplus(f64[2,3]~g, out=f64[2,3]~g) | error:extra | error:extra: symgrad raises TypeError: softplus() got an unexpected keyword argument 'out'
F.softplus | F.softplus(i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "softplus_cpu" not implemented for 'Int'
F.softplus | F.softplus(i64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "softplus_cpu" not implemented for 'Long'
F.softplus | F.softplus(i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "softplus_cpu" not implemented for 'Long'
F.softplus | F.softplus(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softplus | F.softplus(u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "softplus_cpu" not implemented for 'Byte'
F.softshrink | F.softshrink(f32[2,3]~g, out=i64[0]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softshrink | F.softshrink(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softshrink | F.softshrink(f64[2,3]~g, out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softshrink | F.softshrink(f64[2,3]~g, out=f64[2,3]~g) | error:extra | error:extra: symgrad raises TypeError: softshrink() got an unexpected keyword argument 'out'
F.softshrink | F.softshrink(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.softsign | F.softsign(2.5) | error:missing | error:missing: torch raises AttributeError: 'float' object has no attribute 'abs'
F.softsign | F.softsign([1.0, -2.0]) | error:missing | error:missing: torch raises AttributeError: 'list' object has no attribute 'abs'
F.softsign | F.softsign(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
F.tanh | F.tanh(2.5) | error:missing | error:missing: torch raises AttributeError: 'float' object has no attribute 'tanh'
F.tanh | F.tanh([1.0, -2.0]) | error:missing | error:missing: torch raises AttributeError: 'list' object has no attribute 'tanh'
F.tanhshrink | F.tanhshrink(2.5) | error:missing | error:missing: torch raises AttributeError: 'float' object has no attribute 'tanh'
F.tanhshrink | F.tanhshrink([1.0, -2.0]) | error:missing | error:missing: torch raises AttributeError: 'list' object has no attribute 'tanh'
F.tanhshrink | F.tanhshrink(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
F.threshold | F.threshold(b8[2,3], 0.5, -1.0) | error:missing | error:missing: torch raises RuntimeError: "threshold_cpu" not implemented for 'Bool'
F.threshold | F.threshold(u8[2,3], 0.5, -1.0) | error:class | error:class: symgrad OverflowError, torch RuntimeError
F.threshold_ | F.threshold_(u8[2,3], 0.5, -1.0) | error:class | error:class: symgrad OverflowError, torch RuntimeError
F.triplet_margin_loss | F.triplet_margin_loss(b8[4,3], b8[4,3], b8[4,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
F.unfold | F.unfold(i32[1,2,4,4], 2) | error:missing | error:missing: torch raises RuntimeError: "im2col_out_cpu" not implemented for 'Int'
F.unfold | F.unfold(i64[1,2,4,4], 2) | error:missing | error:missing: torch raises RuntimeError: "im2col_out_cpu" not implemented for 'Long'
F.unfold | F.unfold(u8[1,2,4,4], 2) | error:missing | error:missing: torch raises RuntimeError: "im2col_out_cpu" not implemented for 'Byte'
Tensor.__abs__ | Tensor.__abs__(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
Tensor.__add__ | Tensor.__add__(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
Tensor.__add__ | Tensor.__add__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__and__ | Tensor.__and__(b8[2,3], 2) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Half'
Tensor.__and__ | Tensor.__and__(b8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(c128[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'ComplexDouble'
Tensor.__and__ | Tensor.__and__(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'ComplexDouble'
Tensor.__and__ | Tensor.__and__(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'ComplexDouble'
Tensor.__and__ | Tensor.__and__(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Half'
Tensor.__and__ | Tensor.__and__(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Half'
Tensor.__and__ | Tensor.__and__(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Half'
Tensor.__and__ | Tensor.__and__(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(f32[16]:e, f32[16]:t) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(f32[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(f32[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(f32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(f64[0], f64[1]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[16]:e, -0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[16]:e, 0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[16]:e, f64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[2,1], f64[1,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[2,3], inf) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[2,3], nan) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[2,3]:p, f64[2,3]:u) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(f64[], i32[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(i32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int32
Tensor.__and__ | Tensor.__and__(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(i64[14]:t, i64[14]:t) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(i64[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(i64[2,3], 3) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(i64[2,3], True) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(i64[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Half'
Tensor.__and__ | Tensor.__and__(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Float'
Tensor.__and__ | Tensor.__and__(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(i64[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_and_cpu" not implemented for 'Double'
Tensor.__and__ | Tensor.__and__(i64[], u8[3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__and__ | Tensor.__and__(u8[2,3], -1) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__and__ | Tensor.__and__(u8[2,3], b8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__and__ | Tensor.__and__(u8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__and__ | Tensor.__and__(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__eq__ | Tensor.__eq__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__float__ | Tensor.__float__(f64[0]) | error:class | error:class: symgrad RuntimeError, torch ValueError
Tensor.__float__ | Tensor.__float__(f64[2,3]) | error:class | error:class: symgrad RuntimeError, torch ValueError
Tensor.__floordiv__ | Tensor.__floordiv__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "div_floor_cpu" not implemented for 'Bool'
Tensor.__floordiv__ | Tensor.__floordiv__(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__floordiv__ | Tensor.__floordiv__(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__floordiv__ | Tensor.__floordiv__(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__ge__ | Tensor.__ge__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__getitem__ | Tensor.__getitem__(f32[2,3], (0, 1::)) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch SliceBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[0,3], ::) | grad_fn[0] | grad_fn[0]: symgrad None, torch SliceBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3,4], (..., 1, ::2)) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch SliceBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], (0, 1::)) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch SliceBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], (i64[2]:idx2, i64[3]:idx3)) | error:class | error:class: symgrad ValueError, torch IndexError
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], -2::) | grad_fn[0] | grad_fn[0]: symgrad None, torch SliceBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], ...) | grad_fn[0] | grad_fn[0]: symgrad None, torch AliasBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], False) | shape[0] | shape[0]: symgrad [0, 1, 3], torch [0, 2, 3]
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], True) | error:extra | error:extra: symgrad raises IndexError: list index out of range
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], i32[2]:idx2) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], i64[]:idx2) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch SelectBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[2,3], u8[2]:t) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got uint8
Tensor.__getitem__ | Tensor.__getitem__(f64[], ()) | grad_fn[0] | grad_fn[0]: symgrad None, torch AliasBackward0
Tensor.__getitem__ | Tensor.__getitem__(f64[], ...) | grad_fn[0] | grad_fn[0]: symgrad None, torch AliasBackward0
Tensor.__gt__ | Tensor.__gt__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__iadd__ | Tensor.__iadd__(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddBackward0
Tensor.__iadd__ | Tensor.__iadd__(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddBackward0
Tensor.__iadd__ | Tensor.__iadd__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddBackward0
Tensor.__iadd__ | Tensor.__iadd__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__ifloordiv__ | Tensor.__ifloordiv__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "div_floor_cpu" not implemented for 'Bool'
Tensor.__ifloordiv__ | Tensor.__ifloordiv__(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__ifloordiv__ | Tensor.__ifloordiv__(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__ifloordiv__ | Tensor.__ifloordiv__(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__ifloordiv__ | Tensor.__ifloordiv__(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch NotImplemented
Tensor.__ifloordiv__ | Tensor.__ifloordiv__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch NotImplemented
Tensor.__imod__ | Tensor.__imod__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "remainder_cpu" not implemented for 'Bool'
Tensor.__imod__ | Tensor.__imod__(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__imod__ | Tensor.__imod__(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__imod__ | Tensor.__imod__(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__imod__ | Tensor.__imod__(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch RemainderBackward1
Tensor.__imod__ | Tensor.__imod__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch RemainderBackward1
Tensor.__imod__ | Tensor.__imod__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__imul__ | Tensor.__imul__(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch MulBackward0
Tensor.__imul__ | Tensor.__imul__(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad -1.21728516, torch -1.21679688
Tensor.__imul__ | Tensor.__imul__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch MulBackward0
Tensor.__imul__ | Tensor.__imul__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__int__ | Tensor.__int__(f64[0]) | error:class | error:class: symgrad RuntimeError, torch ValueError
Tensor.__int__ | Tensor.__int__(f64[2,3]) | error:class | error:class: symgrad RuntimeError, torch ValueError
Tensor.__invert__ | Tensor.__invert__(c128[2,3]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(c128[8]:e) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(c64[2,3]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f16[16]:e) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f16[2,3]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f16[2,3]:p) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f32[16]:e) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f32[2,3]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f32[2,3]:t) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f64[0]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f64[16]:e) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f64[2,3]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f64[2,3]:p) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f64[2,3]:u) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f64[5]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(f64[]) | error:missing | error:missing: torch raises TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
Tensor.__invert__ | Tensor.__invert__(i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int32
Tensor.__invert__ | Tensor.__invert__(i64[16]:e) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__invert__ | Tensor.__invert__(i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__invert__ | Tensor.__invert__(u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__ipow__ | Tensor.__ipow__(c128[2,3], c128[2,3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.__ipow__ | Tensor.__ipow__(c64[2,3], f64[3]) | grad:error grad_fn[0] | grad:error: symgrad RuntimeError, torch no error
Tensor.__ipow__ | Tensor.__ipow__(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type c10::Half without overflow
Tensor.__ipow__ | Tensor.__ipow__(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 4: symgrad 0.178466782, torch 0.178536728
Tensor.__ipow__ | Tensor.__ipow__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch PowBackward1
Tensor.__ipow__ | Tensor.__ipow__(i32[2,3], i32[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int32 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(i32[2,3], i64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int32 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(i64[14]:e, i64[14]:e) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(i64[14]:t, i64[14]:t) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(i64[2,3], True) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(i64[2,3], i64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(i64[2,3], i64[2,3]:t) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(u8[2,3], b8[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type uint8 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(u8[2,3], i64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type uint8 (pow_)
Tensor.__ipow__ | Tensor.__ipow__(u8[2,3], u8[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type uint8 (pow_)
Tensor.__isub__ | Tensor.__isub__(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__isub__ | Tensor.__isub__(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.__isub__ | Tensor.__isub__(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.__isub__ | Tensor.__isub__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.__isub__ | Tensor.__isub__(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__isub__ | Tensor.__isub__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__isub__ | Tensor.__isub__(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__itruediv__ | Tensor.__itruediv__(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.__itruediv__ | Tensor.__itruediv__(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.__itruediv__ | Tensor.__itruediv__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.__itruediv__ | Tensor.__itruediv__(f64[16]:e, f64[16]:e, rounding_mode='floor') | error:extra | error:extra: symgrad raises TypeError: _binary.<locals>.method() got an unexpected keyword argument 'rounding_mode'
Tensor.__itruediv__ | Tensor.__itruediv__(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__itruediv__ | Tensor.__itruediv__(f64[2,3], f64[2,3]:t, rounding_mode='floor') | error:extra | error:extra: symgrad raises TypeError: _binary.<locals>.method() got an unexpected keyword argument 'rounding_mode'
Tensor.__itruediv__ | Tensor.__itruediv__(f64[2,3], f64[2,3]:t, rounding_mode='trunc') | error:extra | error:extra: symgrad raises TypeError: _binary.<locals>.method() got an unexpected keyword argument 'rounding_mode'
Tensor.__itruediv__ | Tensor.__itruediv__(f64[2,3], f64[2,3]:t, rounding_mode=None) | error:extra | error:extra: symgrad raises TypeError: _binary.<locals>.method() got an unexpected keyword argument 'rounding_mode'
Tensor.__itruediv__ | Tensor.__itruediv__(i64[14]:e, i64[14]:t, rounding_mode='floor') | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__itruediv__ | Tensor.__itruediv__(i64[14]:e, i64[14]:t, rounding_mode='trunc') | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__le__ | Tensor.__le__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__lt__ | Tensor.__lt__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__matmul__ | Tensor.__matmul__(f64[1,2,3], f64[4,3,2]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch CloneBackward0
Tensor.__matmul__ | Tensor.__matmul__(f64[2,3], [[1.0], [2.0], [3.0]]) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.__mod__ | Tensor.__mod__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "remainder_cpu" not implemented for 'Bool'
Tensor.__mod__ | Tensor.__mod__(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__mod__ | Tensor.__mod__(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__mod__ | Tensor.__mod__(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__mod__ | Tensor.__mod__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__mul__ | Tensor.__mul__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__ne__ | Tensor.__ne__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__neg__ | Tensor.__neg__(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__or__ | Tensor.__or__(b8[2,3], 2) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Half'
Tensor.__or__ | Tensor.__or__(b8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(c128[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'ComplexDouble'
Tensor.__or__ | Tensor.__or__(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'ComplexDouble'
Tensor.__or__ | Tensor.__or__(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'ComplexDouble'
Tensor.__or__ | Tensor.__or__(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Half'
Tensor.__or__ | Tensor.__or__(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Half'
Tensor.__or__ | Tensor.__or__(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Half'
Tensor.__or__ | Tensor.__or__(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(f32[16]:e, f32[16]:t) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(f32[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(f32[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(f32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(f64[0], f64[1]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[16]:e, -0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[16]:e, 0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[16]:e, f64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[2,1], f64[1,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[2,3], inf) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[2,3], nan) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[2,3]:p, f64[2,3]:u) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(f64[], i32[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(i32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int32
Tensor.__or__ | Tensor.__or__(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(i64[14]:t, i64[14]:t) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(i64[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(i64[2,3], 3) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(i64[2,3], True) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(i64[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Half'
Tensor.__or__ | Tensor.__or__(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Float'
Tensor.__or__ | Tensor.__or__(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(i64[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_or_cpu" not implemented for 'Double'
Tensor.__or__ | Tensor.__or__(i64[], u8[3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__or__ | Tensor.__or__(u8[2,3], -1) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__or__ | Tensor.__or__(u8[2,3], b8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__or__ | Tensor.__or__(u8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__or__ | Tensor.__or__(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__pos__ | Tensor.__pos__(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: The `+` operator, on a bool tensor is not supported.
Tensor.__pow__ | Tensor.__pow__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "pow" not implemented for 'Bool'
Tensor.__pow__ | Tensor.__pow__(b8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(c128[2,3], c128[2,3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.__pow__ | Tensor.__pow__(c64[2,3], f64[3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.__pow__ | Tensor.__pow__(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type c10::Half without overflow
Tensor.__pow__ | Tensor.__pow__(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int32
Tensor.__pow__ | Tensor.__pow__(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(i64[14]:t, i64[14]:t) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(i64[2,3], True) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(i64[2,3], i64[2,3]:t) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(i64[], u8[3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
Tensor.__pow__ | Tensor.__pow__(u8[2,3], b8[2,3]) | dtype[0] | dtype[0]: symgrad float32, torch uint8
Tensor.__pow__ | Tensor.__pow__(u8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__pow__ | Tensor.__pow__(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
Tensor.__radd__ | Tensor.__radd__(b8[2,3], True, alpha=True) | error:extra | error:extra: symgrad raises TypeError: _commuted.<locals>.<lambda>() got an unexpected keyword argument 'alpha'
Tensor.__radd__ | Tensor.__radd__(f64[2,3], f64[2,3], alpha=0.5) | error:extra | error:extra: symgrad raises TypeError: _commuted.<locals>.<lambda>() got an unexpected keyword argument 'alpha'
Tensor.__radd__ | Tensor.__radd__(f64[2,3], f64[2,3], alpha=2) | error:extra | error:extra: symgrad raises TypeError: _commuted.<locals>.<lambda>() got an unexpected keyword argument 'alpha'
Tensor.__radd__ | Tensor.__radd__(i64[2,3], i64[2,3], alpha=0.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__radd__ | Tensor.__radd__(i64[2,3], i64[2,3], alpha=2) | error:extra | error:extra: symgrad raises TypeError: _commuted.<locals>.<lambda>() got an unexpected keyword argument 'alpha'
Tensor.__radd__ | Tensor.__radd__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__rfloordiv__ | Tensor.__rfloordiv__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "div_floor_cpu" not implemented for 'Bool'
Tensor.__rfloordiv__ | Tensor.__rfloordiv__(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__rfloordiv__ | Tensor.__rfloordiv__(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__rfloordiv__ | Tensor.__rfloordiv__(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__rmatmul__ | Tensor.__rmatmul__(f64[2,3], [[1.0], [2.0], [3.0]]) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.__rmod__ | Tensor.__rmod__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "remainder_cpu" not implemented for 'Bool'
Tensor.__rmod__ | Tensor.__rmod__(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(f32[2,3], 2) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(f32[2,3], 2.5) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(f64[16]:e, -0.0) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(f64[16]:e, 0.0) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(f64[2,3], inf) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(f64[2,3], nan) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.__rmod__ | Tensor.__rmod__(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch RuntimeError
Tensor.__rmul__ | Tensor.__rmul__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__rpow__ | Tensor.__rpow__(b8[2,3], 1) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(b8[2,3], 2) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "pow" not implemented for 'Bool'
Tensor.__rpow__ | Tensor.__rpow__(b8[2,3], i64[2,3]) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(c128[2,3], 2.5) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.__rpow__ | Tensor.__rpow__(c128[2,3], c128[2,3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.__rpow__ | Tensor.__rpow__(c64[2,3], f64[3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.__rpow__ | Tensor.__rpow__(f64[16]:e, -0.0) | grad[0] value[0] | grad[0]: value at 2: symgrad inf, torch -inf
Tensor.__rpow__ | Tensor.__rpow__(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int32
Tensor.__rpow__ | Tensor.__rpow__(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[14]:t, i64[14]:t) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[2,3], -1) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[2,3], 2) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[2,3], 3) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[2,3], True) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[2,3], i64[2,3]:t) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(i64[], u8[3]) | dtype[0] | dtype[0]: symgrad float32, torch uint8
Tensor.__rpow__ | Tensor.__rpow__(u8[2,3], -1) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
Tensor.__rpow__ | Tensor.__rpow__(u8[2,3], b8[2,3]) | dtype[0] | dtype[0]: symgrad float32, torch uint8
Tensor.__rpow__ | Tensor.__rpow__(u8[2,3], i64[2,3]) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.__rpow__ | Tensor.__rpow__(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
Tensor.__rsub__ | Tensor.__rsub__(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__rsub__ | Tensor.__rsub__(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__rsub__ | Tensor.__rsub__(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__rsub__ | Tensor.__rsub__(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__rsub__ | Tensor.__rsub__(c128[2,3], c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f32[16]:e, f32[16]:t) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f32[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f32[3], f64[]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[0], f64[1]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[16]:e, f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[2,1], f64[1,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[2,3], u8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[2,3]:p, f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(f64[], i32[3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(i32[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__rsub__ | Tensor.__rsub__(i64[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(i64[3], f64[]) | grad_fn[0] | grad_fn[0]: symgrad RsubBackward1, torch RsubBackward0
Tensor.__rsub__ | Tensor.__rsub__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__rsub__ | Tensor.__rsub__(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__rtruediv__ | Tensor.__rtruediv__(b8[2,3], f16[2,3]) | dtype[0] | dtype[0]: symgrad float16, torch float32
Tensor.__rtruediv__ | Tensor.__rtruediv__(c128[2,3], c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(c64[2,3], f64[3]) | grad[1] grad_fn[0] | grad[1]: value at 2: symgrad 1.230652634998, torch 1.230652924627
Tensor.__rtruediv__ | Tensor.__rtruediv__(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] value[0] | grad[0]: value at 2: symgrad -26.14468, torch -26.15625
Tensor.__rtruediv__ | Tensor.__rtruediv__(f32[16]:e, f32[16]:t) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f32[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f32[3], f64[]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[0], f64[1]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[16]:e, f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[2,1], f64[1,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[2,3], u8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[2,3]:p, f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(f64[], i32[3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(i32[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(i64[2,3], f16[2,3]) | dtype[0] | dtype[0]: symgrad float16, torch float32
Tensor.__rtruediv__ | Tensor.__rtruediv__(i64[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch MulBackward0
Tensor.__rtruediv__ | Tensor.__rtruediv__(i64[3], f64[]) | dtype[0] grad_fn[0] | dtype[0]: symgrad float64, torch float32
Tensor.__rxor__ | Tensor.__rxor__(b8[2,3], 2) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__rxor__ | Tensor.__rxor__(b8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(c128[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'ComplexDouble'
Tensor.__rxor__ | Tensor.__rxor__(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'ComplexDouble'
Tensor.__rxor__ | Tensor.__rxor__(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'ComplexDouble'
Tensor.__rxor__ | Tensor.__rxor__(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__rxor__ | Tensor.__rxor__(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__rxor__ | Tensor.__rxor__(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__rxor__ | Tensor.__rxor__(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(f32[16]:e, f32[16]:t) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(f32[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(f32[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(f32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(f64[0], f64[1]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[16]:e, -0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[16]:e, 0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[16]:e, f64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[2,1], f64[1,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[2,3], inf) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[2,3], nan) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[2,3]:p, f64[2,3]:u) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(f64[], i32[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(i32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int32
Tensor.__rxor__ | Tensor.__rxor__(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(i64[14]:t, i64[14]:t) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(i64[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(i64[2,3], 3) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(i64[2,3], True) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(i64[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__rxor__ | Tensor.__rxor__(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__rxor__ | Tensor.__rxor__(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(i64[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__rxor__ | Tensor.__rxor__(i64[], u8[3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__rxor__ | Tensor.__rxor__(u8[2,3], -1) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__rxor__ | Tensor.__rxor__(u8[2,3], b8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__rxor__ | Tensor.__rxor__(u8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__rxor__ | Tensor.__rxor__(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__setitem__ | Tensor.__setitem__(f32[2,3], (0, 1::), 1) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (..., 0), 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (..., 0), f64[]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (..., 0), i64[2]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (0, 1), f64[]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (0, 1::), 1) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (::, 1), 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (::, 1), f64[]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], (::, 1), i64[2]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 0, 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 0, f32[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 0, f64[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 0, f64[]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 1::, 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 1::, f32[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 1::, f64[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], 1::, f64[]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch CopySlices
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], b8[2,3], 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch IndexPutBackward0
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], b8[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexPutBackward0
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], b8[2,3], f64[]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch IndexPutBackward0
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], i64[2]:perm2, 2.5) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexPutBackward0
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], i64[2]:perm2, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexPutBackward0
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], i64[2]:perm2, f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexPutBackward0
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], i64[2]:perm2, f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexPutBackward0
Tensor.__setitem__ | Tensor.__setitem__(f64[2,3], i64[3]:idx2, f64[3,3]) #dup | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch IndexPutBackward0
Tensor.__sub__ | Tensor.__sub__(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__sub__ | Tensor.__sub__(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__sub__ | Tensor.__sub__(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__sub__ | Tensor.__sub__(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__sub__ | Tensor.__sub__(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__sub__ | Tensor.__sub__(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
Tensor.__sub__ | Tensor.__sub__(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.__sub__ | Tensor.__sub__(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.__truediv__ | Tensor.__truediv__(f64[16]:e, f64[16]:e, rounding_mode='floor') | error:extra | error:extra: symgrad raises TypeError: div() got an unexpected keyword argument 'rounding_mode'
Tensor.__truediv__ | Tensor.__truediv__(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__truediv__ | Tensor.__truediv__(f64[2,3], f64[2,3]:t, rounding_mode='floor') | error:extra | error:extra: symgrad raises TypeError: div() got an unexpected keyword argument 'rounding_mode'
Tensor.__truediv__ | Tensor.__truediv__(f64[2,3], f64[2,3]:t, rounding_mode='trunc') | error:extra | error:extra: symgrad raises TypeError: div() got an unexpected keyword argument 'rounding_mode'
Tensor.__truediv__ | Tensor.__truediv__(f64[2,3], f64[2,3]:t, rounding_mode=None) | error:extra | error:extra: symgrad raises TypeError: div() got an unexpected keyword argument 'rounding_mode'
Tensor.__truediv__ | Tensor.__truediv__(i64[14]:e, i64[14]:t, rounding_mode='floor') | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__truediv__ | Tensor.__truediv__(i64[14]:e, i64[14]:t, rounding_mode='trunc') | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.__xor__ | Tensor.__xor__(b8[2,3], 2) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__xor__ | Tensor.__xor__(b8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(c128[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'ComplexDouble'
Tensor.__xor__ | Tensor.__xor__(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'ComplexDouble'
Tensor.__xor__ | Tensor.__xor__(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'ComplexDouble'
Tensor.__xor__ | Tensor.__xor__(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__xor__ | Tensor.__xor__(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__xor__ | Tensor.__xor__(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__xor__ | Tensor.__xor__(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(f32[16]:e, f32[16]:t) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(f32[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(f32[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(f32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(f64[0], f64[1]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[16]:e, -0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[16]:e, 0.0) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[16]:e, f64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[2,1], f64[1,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[2,3], inf) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[2,3], nan) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[2,3]:p, f64[2,3]:u) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(f64[], i32[3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(i32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int32
Tensor.__xor__ | Tensor.__xor__(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(i64[14]:t, i64[14]:t) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(i64[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(i64[2,3], 3) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(i64[2,3], True) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(i64[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Half'
Tensor.__xor__ | Tensor.__xor__(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Float'
Tensor.__xor__ | Tensor.__xor__(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(i64[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: "bitwise_xor_cpu" not implemented for 'Double'
Tensor.__xor__ | Tensor.__xor__(i64[], u8[3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__xor__ | Tensor.__xor__(u8[2,3], -1) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__xor__ | Tensor.__xor__(u8[2,3], b8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.__xor__ | Tensor.__xor__(u8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch int64
Tensor.__xor__ | Tensor.__xor__(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad bool, torch uint8
Tensor.abs | Tensor.abs(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
Tensor.abs_ | Tensor.abs_(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
Tensor.abs_ | Tensor.abs_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: In-place abs is not supported for complex tensors.
Tensor.abs_ | Tensor.abs_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: In-place abs is not supported for complex tensors.
Tensor.abs_ | Tensor.abs_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: In-place abs is not supported for complex tensors.
Tensor.absolute | Tensor.absolute(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
Tensor.absolute_ | Tensor.absolute_(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
Tensor.absolute_ | Tensor.absolute_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: In-place abs is not supported for complex tensors.
Tensor.absolute_ | Tensor.absolute_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: In-place abs is not supported for complex tensors.
Tensor.absolute_ | Tensor.absolute_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: In-place abs is not supported for complex tensors.
Tensor.acosh_ | Tensor.acosh_(c128[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(c128[8]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(c64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f32[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f32[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f32[2,3]:t) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f64[0]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f64[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f64[2,3]:p) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f64[2,3]:u) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f64[5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.acosh_ | Tensor.acosh_(f64[]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.add | Tensor.add(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
Tensor.add | Tensor.add(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.add_ | Tensor.add_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddBackward0
Tensor.add_ | Tensor.add_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddBackward0
Tensor.add_ | Tensor.add_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddBackward0
Tensor.add_ | Tensor.add_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.addbmm | Tensor.addbmm(f16[3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 6: symgrad 0.55371, torch 0.55273
Tensor.addbmm | Tensor.addbmm(f32[3,4], f64[2,3,3], f64[2,3,4]) | error:missing | error:missing: torch raises RuntimeError: self and mat2 must have the same dtype, but got Float and Double
Tensor.addbmm | Tensor.addbmm(i32[3,4], i32[2,3,3], i32[2,3,4]) | dtype[0] | dtype[0]: symgrad int64, torch int32
Tensor.addbmm | Tensor.addbmm(i64[3,4], i64[2,3,3], i64[2,3,4], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.addbmm | Tensor.addbmm(u8[3,4], u8[2,3,3], u8[2,3,4]) | dtype[0] | dtype[0]: symgrad int64, torch uint8
Tensor.addbmm_ | Tensor.addbmm_(f16[3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 6: symgrad 0.55371, torch 0.55273
Tensor.addbmm_ | Tensor.addbmm_(f32[3,4], f64[2,3,3], f64[2,3,4]) | error:missing | error:missing: torch raises RuntimeError: self and mat2 must have the same dtype, but got Float and Double
Tensor.addbmm_ | Tensor.addbmm_(f64[4], f64[2,3,3], f64[2,3,4]) | error:extra | error:extra: symgrad raises RuntimeError: output with shape [4] doesn't match the broadcast shape [3, 4] (addbmm_)
Tensor.addbmm_ | Tensor.addbmm_(f64[], f64[2,3,3], f64[2,3,4]) | error:extra | error:extra: symgrad raises RuntimeError: output with shape [] doesn't match the broadcast shape [3, 4] (addbmm_)
Tensor.addbmm_ | Tensor.addbmm_(i64[3,4], i64[2,3,3], i64[2,3,4], alpha=0.5) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (addbmm_)
Tensor.addcdiv | Tensor.addcdiv(b8[2,3]:n, b8[2,3]:n, b8[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
Tensor.addcdiv | Tensor.addcdiv(i32[2,3]:n, i32[2,3]:n, i32[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
Tensor.addcdiv | Tensor.addcdiv(i64[2,3], i64[2,3], i64[2,3], value=0.5) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
Tensor.addcdiv | Tensor.addcdiv(i64[2,3], i64[2,3], i64[2,3], value=2) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
Tensor.addcdiv | Tensor.addcdiv(i64[2,3]:n, i64[2,3]:n, i64[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
Tensor.addcdiv | Tensor.addcdiv(u8[2,3]:n, u8[2,3]:n, u8[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
Tensor.addcdiv_ | Tensor.addcdiv_(f32[2,3]:n, f64[3]:n, f32[2,1]:n) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddcdivBackward0
Tensor.addcmul | Tensor.addcmul(b8[2,3]:n, b8[2,3]:n, b8[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: "addcmul_cpu_out" not implemented for 'Bool'
Tensor.addcmul | Tensor.addcmul(f16[2,3]:n, f16[2,3]:n, f16[2,3]:n) | value[0] | value[0]: at 1: symgrad -0.16357, torch -0.16321
Tensor.addcmul | Tensor.addcmul(i64[2,3], i64[2,3], i64[2,3], value=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.addcmul_ | Tensor.addcmul_(b8[2,3]:n, b8[2,3]:n, b8[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: "addcmul_cpu_out" not implemented for 'Bool'
Tensor.addcmul_ | Tensor.addcmul_(f16[2,3]:n, f16[2,3]:n, f16[2,3]:n) | value[0] | value[0]: at 1: symgrad -0.16357, torch -0.16321
Tensor.addcmul_ | Tensor.addcmul_(f32[2,3]:n, f64[3]:n, f32[2,1]:n) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch AddcmulBackward0
Tensor.addcmul_ | Tensor.addcmul_(i64[2,3], i64[2,3], i64[2,3], value=0.5) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (addcmul_)
Tensor.addmm | Tensor.addmm(f32[2,4], f64[2,3], f64[3,4]) | error:missing | error:missing: torch raises RuntimeError: self and mat2 must have the same dtype, but got Float and Double
Tensor.addmm | Tensor.addmm(i64[2,4], i64[2,3], i64[3,4], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.addmm_ | Tensor.addmm_(f32[2,4], f64[2,3], f64[3,4]) | error:missing | error:missing: torch raises RuntimeError: self and mat2 must have the same dtype, but got Float and Double
Tensor.addmm_ | Tensor.addmm_(i64[2,4], i64[2,3], i64[3,4], alpha=0.5) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (addmm_)
Tensor.addmv | Tensor.addmv(f32[2], f64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: addmv input tensors must have the same dtype, but got Float, Double, and Double
Tensor.addmv | Tensor.addmv(i64[2], i64[2,3], i64[3], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.addmv_ | Tensor.addmv_(f32[2], f64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: addmv input tensors must have the same dtype, but got Float, Double, and Double
Tensor.addmv_ | Tensor.addmv_(i64[2], i64[2,3], i64[3], alpha=0.5) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (addmv_)
Tensor.all | Tensor.all(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.all | Tensor.all(u8[2,3]) | dtype[0] | dtype[0]: symgrad bool, torch uint8
Tensor.all | Tensor.all(u8[2,3], -1) | dtype[0] | dtype[0]: symgrad bool, torch uint8
Tensor.allclose | Tensor.allclose(b8[2,3], b8[2,3]) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
Tensor.allclose | Tensor.allclose(b8[2,3]@2, b8[2,3]@2) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
Tensor.allclose | Tensor.allclose(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Float did not match Double
Tensor.allclose | Tensor.allclose(f64[2,3], f64[2,3], rtol=-1.0) | error:missing | error:missing: torch raises RuntimeError: rtol must be greater than or equal to zero, but got -1
Tensor.allclose | Tensor.allclose(i64[2,3]@1, f64[2,3]@1) | error:missing | error:missing: torch raises RuntimeError: Long did not match Double
Tensor.amax | Tensor.amax(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "max_values_cpu" not implemented for 'ComplexDouble'
Tensor.amax | Tensor.amax(f64[0,3], (0,)) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.amax | Tensor.amax(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.amax | Tensor.amax(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.amin | Tensor.amin(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "min_values_cpu" not implemented for 'ComplexDouble'
Tensor.amin | Tensor.amin(f64[0,3], (0,)) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.amin | Tensor.amin(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.amin | Tensor.amin(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.aminmax | Tensor.aminmax(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "aminmax_cpu" not implemented for 'ComplexDouble'
Tensor.any | Tensor.any(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.any | Tensor.any(u8[2,3]) | dtype[0] | dtype[0]: symgrad bool, torch uint8
Tensor.any | Tensor.any(u8[2,3], -1) | dtype[0] | dtype[0]: symgrad bool, torch uint8
Tensor.arccosh_ | Tensor.arccosh_(c128[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(c128[8]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(c64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f32[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f32[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f32[2,3]:t) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f64[0]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f64[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f64[2,3]:p) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f64[2,3]:u) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f64[5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arccosh_ | Tensor.arccosh_(f64[]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(c128[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(c128[8]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(c64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f32[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f32[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f32[2,3]:t) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f64[0]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f64[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f64[2,3]:p) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f64[2,3]:u) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f64[5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arcsinh_ | Tensor.arcsinh_(f64[]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctan2 | Tensor.arctan2(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.arctan2 | Tensor.arctan2(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.arctan2 | Tensor.arctan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
Tensor.arctan2_ | Tensor.arctan2_(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.arctan2_ | Tensor.arctan2_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.arctan2_ | Tensor.arctan2_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.arctan2_ | Tensor.arctan2_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad 2.97868729, torch 2.97729802
Tensor.arctan2_ | Tensor.arctan2_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch Atan2Backward0
Tensor.arctan2_ | Tensor.arctan2_(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.arctan2_ | Tensor.arctan2_(i64[2,3], 3) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.arctan2_ | Tensor.arctan2_(i64[2,3], True) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.arctan2_ | Tensor.arctan2_(u8[2,3], -1) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.arctanh_ | Tensor.arctanh_(c128[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(c128[8]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(c64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f32[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f32[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f32[2,3]:t) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f64[0]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f64[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f64[2,3]:p) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f64[2,3]:u) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f64[5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.arctanh_ | Tensor.arctanh_(f64[]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.argmax | Tensor.argmax(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmax(): does not support bool input
Tensor.argmax | Tensor.argmax(b8[2,3], 0) | error:missing | error:missing: torch raises RuntimeError: argmax(): does not support bool input
Tensor.argmax | Tensor.argmax(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmax(): does not support complex input
Tensor.argmax | Tensor.argmax(f64[0,3]) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.argmax | Tensor.argmax(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.argmax | Tensor.argmax(f64[0]) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.argmin | Tensor.argmin(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmin(): does not support bool input
Tensor.argmin | Tensor.argmin(b8[2,3], 0) | error:missing | error:missing: torch raises RuntimeError: argmin(): does not support bool input
Tensor.argmin | Tensor.argmin(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmin(): does not support complex input
Tensor.argmin | Tensor.argmin(f64[0,3]) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.argmin | Tensor.argmin(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.argmin | Tensor.argmin(f64[0]) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.asinh_ | Tensor.asinh_(c128[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(c128[8]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(c64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f32[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f32[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f32[2,3]:t) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f64[0]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f64[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f64[2,3]:p) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f64[2,3]:u) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f64[5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.asinh_ | Tensor.asinh_(f64[]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atan2 | Tensor.atan2(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.atan2 | Tensor.atan2(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.atan2 | Tensor.atan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
Tensor.atan2_ | Tensor.atan2_(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.atan2_ | Tensor.atan2_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.atan2_ | Tensor.atan2_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.atan2_ | Tensor.atan2_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad 2.97868729, torch 2.97729802
Tensor.atan2_ | Tensor.atan2_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch Atan2Backward0
Tensor.atan2_ | Tensor.atan2_(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.atan2_ | Tensor.atan2_(i64[2,3], 3) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.atan2_ | Tensor.atan2_(i64[2,3], True) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.atan2_ | Tensor.atan2_(u8[2,3], -1) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.atanh_ | Tensor.atanh_(c128[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(c128[8]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(c64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f32[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f32[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f32[2,3]:t) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f64[0]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f64[16]:e) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f64[2,3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f64[2,3]:p) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f64[2,3]:u) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f64[5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.atanh_ | Tensor.atanh_(f64[]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.baddbmm | Tensor.baddbmm(f16[2,3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 2: symgrad 0.45605, torch 0.45654
Tensor.baddbmm | Tensor.baddbmm(f32[2,3,4], f64[2,3,3], f64[2,3,4]) | error:missing | error:missing: torch raises RuntimeError: Input dtypes must be the same, got: input float, batch1: double, batch2: double
Tensor.baddbmm | Tensor.baddbmm(i64[2,3,4], i64[2,3,3], i64[2,3,4], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.baddbmm_ | Tensor.baddbmm_(f16[2,3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 2: symgrad 0.45605, torch 0.45654
Tensor.baddbmm_ | Tensor.baddbmm_(f32[2,3,4], f64[2,3,3], f64[2,3,4]) | error:missing | error:missing: torch raises RuntimeError: Input dtypes must be the same, got: input float, batch1: double, batch2: double
Tensor.baddbmm_ | Tensor.baddbmm_(i64[2,3,4], i64[2,3,3], i64[2,3,4], alpha=0.5) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (baddbmm_)
Tensor.bernoulli | Tensor.bernoulli(f64[3,4]:01, 0.3) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.bernoulli | Tensor.bernoulli(f64[3,4]:01, p=0.7) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.bernoulli_ | Tensor.bernoulli_(f64[3,4], f64[4]:01) | grad[1] | grad[1]: symgrad none, torch a gradient
Tensor.bincount | Tensor.bincount(i64[6]:idx4, f32[6]) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.bincount | Tensor.bincount(i64[6]:idx4, f64[6]) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.broadcast_to | Tensor.broadcast_to(f64[2,3], (-1, 3)) | grad_fn[0] | grad_fn[0]: symgrad None, torch ExpandBackward0
Tensor.broadcast_to | Tensor.broadcast_to(f64[], ()) | grad_fn[0] | grad_fn[0]: symgrad None, torch ExpandBackward0
Tensor.ceil | Tensor.ceil(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
Tensor.ceil | Tensor.ceil(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
Tensor.ceil | Tensor.ceil(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
Tensor.ceil_ | Tensor.ceil_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
Tensor.ceil_ | Tensor.ceil_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
Tensor.ceil_ | Tensor.ceil_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
Tensor.cholesky | Tensor.cholesky(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.cholesky | Tensor.cholesky(f32[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
Tensor.cholesky | Tensor.cholesky(f64[0,0]) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
Tensor.cholesky | Tensor.cholesky(f64[2,0,0]) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
Tensor.cholesky | Tensor.cholesky(f64[2,3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
Tensor.cholesky | Tensor.cholesky(f64[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
Tensor.cholesky | Tensor.cholesky(f64[3,3]:spd, False) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
Tensor.cholesky | Tensor.cholesky(f64[3,3]:spd, True) | grad_fn[0] | grad_fn[0]: symgrad TransposeBackward0, torch CholeskyBackward0
Tensor.cholesky | Tensor.cholesky(f64[3,3]:tri) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
Tensor.cholesky_inverse | Tensor.cholesky_inverse(f16[3,3]:spd) | error:missing | error:missing: torch raises RuntimeError: "cholesky_inverse_out_cpu" not implemented for 'Half'
Tensor.cholesky_inverse | Tensor.cholesky_inverse(f64[3,3]:e) | value[0] | value[0]: at 4: symgrad nan, torch 0.0
Tensor.chunk | Tensor.chunk(f32[2,3], 2) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.chunk | Tensor.chunk(f64[0,3], 2) | structure | structure: symgrad (T), torch (T,T)
Tensor.chunk | Tensor.chunk(f64[0,3], 2, 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.chunk | Tensor.chunk(f64[2,3], 2) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.chunk | Tensor.chunk(f64[2,3], 2, 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.chunk | Tensor.chunk(f64[2,3], 3, -1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.chunk | Tensor.chunk(f64[2,3], 4, 1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.chunk | Tensor.chunk(f64[7], 3) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.clamp | Tensor.clamp(f64[2,3]) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.clamp_ | Tensor.clamp_(f64[2,3]) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.clamp_max | Tensor.clamp_max(f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMaxBackward1
Tensor.clamp_max | Tensor.clamp_max(f64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMaxBackward1
Tensor.clamp_min | Tensor.clamp_min(f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMinBackward1
Tensor.clamp_min | Tensor.clamp_min(f64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMinBackward1
Tensor.clip | Tensor.clip(f64[2,3]) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.clip_ | Tensor.clip_(f64[2,3]) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.copy_ | Tensor.copy_(f64[2,3], f32[2,3], True) | error:extra | error:extra: symgrad raises TypeError: copy_() takes 2 positional arguments but 3 were given
Tensor.copysign | Tensor.copysign(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.copysign | Tensor.copysign(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.copysign | Tensor.copysign(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.copysign_ | Tensor.copysign_(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.copysign_ | Tensor.copysign_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.copysign_ | Tensor.copysign_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.copysign_ | Tensor.copysign_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch CopysignBackward0
Tensor.copysign_ | Tensor.copysign_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch CopysignBackward0
Tensor.corrcoef | Tensor.corrcoef(b8[2,5]) | error:missing | error:missing: torch raises RuntimeError: cov(): bool dtype is not supported for input
Tensor.count_nonzero | Tensor.count_nonzero(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.count_nonzero | Tensor.count_nonzero(f64[2,3], 1, True) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.cov | Tensor.cov(b8[2,5]) | error:missing | error:missing: torch raises RuntimeError: cov(): bool dtype is not supported for input
Tensor.cross | Tensor.cross(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.cross | Tensor.cross(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected scalar type Float but found Double
Tensor.cross | Tensor.cross(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected scalar type Long but found Float
Tensor.cumprod | Tensor.cumprod(f64[16]:e, 0) | grad[0] | grad[0]: value at 10: symgrad -inf, torch nan
Tensor.cumprod_ | Tensor.cumprod_(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "cumprod_out_cpu" not implemented for 'Bool'
Tensor.cumprod_ | Tensor.cumprod_(f64[16]:e, 0) | grad[0] | grad[0]: value at 10: symgrad -inf, torch nan
Tensor.cumprod_ | Tensor.cumprod_(f64[2,3], 0, dtype=torch.float32) | error:missing | error:missing: torch raises RuntimeError: Bad in-place call: input tensor dtype double and output tensor dtype float shoul
Tensor.cumprod_ | Tensor.cumprod_(i64[2,3], 1, dtype=torch.float64) | error:missing | error:missing: torch raises RuntimeError: Bad in-place call: input tensor dtype long int and output tensor dtype double sh
Tensor.cumsum_ | Tensor.cumsum_(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "cumsum_out_cpu" not implemented for 'Bool'
Tensor.cumsum_ | Tensor.cumsum_(f64[2,3], 0, dtype=torch.float32) | error:missing | error:missing: torch raises RuntimeError: Bad in-place call: input tensor dtype double and output tensor dtype float shoul
Tensor.cumsum_ | Tensor.cumsum_(i64[2,3], 1, dtype=torch.float64) | error:missing | error:missing: torch raises RuntimeError: Bad in-place call: input tensor dtype long int and output tensor dtype double sh
Tensor.deg2rad | Tensor.deg2rad(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
Tensor.deg2rad | Tensor.deg2rad(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
Tensor.deg2rad | Tensor.deg2rad(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
Tensor.deg2rad_ | Tensor.deg2rad_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
Tensor.deg2rad_ | Tensor.deg2rad_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
Tensor.deg2rad_ | Tensor.deg2rad_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
Tensor.det | Tensor.det(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.det | Tensor.det(f64[3,3]:sing) | grad[0] | grad[0]: value at 0: symgrad nan, torch 3.231353942695e-17
Tensor.diag | Tensor.diag(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0_copy
Tensor.diag | Tensor.diag(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch DiagonalBackward0_copy
Tensor.diag | Tensor.diag(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag | Tensor.diag(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0_copy
Tensor.diag | Tensor.diag(f64[3,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0_copy
Tensor.diag | Tensor.diag(f64[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag | Tensor.diag(f64[3], -2) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag | Tensor.diag(f64[3], 1) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag_embed | Tensor.diag_embed(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag_embed | Tensor.diag_embed(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag_embed | Tensor.diag_embed(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag_embed | Tensor.diag_embed(f64[2,3], -1, 0, 2) | error:extra | error:extra: symgrad raises RuntimeError: diag_embed: only dim1=-2, dim2=-1 are supported yet
Tensor.diag_embed | Tensor.diag_embed(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diag_embed | Tensor.diag_embed(f64[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
Tensor.diagonal | Tensor.diagonal(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[2,3,4], 0, -1, 0) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[2,3,4], 0, 1, 2) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[2,3,4], dim1=2, dim2=0, offset=1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[2,3], 5) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[3,3], -1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
Tensor.diagonal | Tensor.diagonal(f64[3,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
Tensor.diff | Tensor.diff(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad None, torch CopyBackwards
Tensor.digamma | Tensor.digamma(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.digamma | Tensor.digamma(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.digamma | Tensor.digamma(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.digamma_ | Tensor.digamma_(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.digamma_ | Tensor.digamma_(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.digamma_ | Tensor.digamma_(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.dist | Tensor.dist(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.dist | Tensor.dist(f64[2,3], f64[3], 0) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.div | Tensor.div(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.div | Tensor.div(f64[2,3], f64[2,3]:t, rounding_mode=None) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward2
Tensor.div_ | Tensor.div_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.div_ | Tensor.div_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.div_ | Tensor.div_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.div_ | Tensor.div_(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.div_ | Tensor.div_(f64[2,3], f64[2,3]:t, rounding_mode=None) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward2
Tensor.divide | Tensor.divide(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.divide | Tensor.divide(f64[2,3], f64[2,3]:t, rounding_mode=None) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward2
Tensor.divide_ | Tensor.divide_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.divide_ | Tensor.divide_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.divide_ | Tensor.divide_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.divide_ | Tensor.divide_(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.divide_ | Tensor.divide_(f64[2,3], f64[2,3]:t, rounding_mode=None) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward2
Tensor.dot | Tensor.dot(f64[3], 2.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.eq | Tensor.eq(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.eq_ | Tensor.eq_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.erf | Tensor.erf(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erf | Tensor.erf(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erf | Tensor.erf(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erf_ | Tensor.erf_(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erf_ | Tensor.erf_(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erf_ | Tensor.erf_(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfc | Tensor.erfc(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfc | Tensor.erfc(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfc | Tensor.erfc(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfc_ | Tensor.erfc_(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfc_ | Tensor.erfc_(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfc_ | Tensor.erfc_(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfinv | Tensor.erfinv(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfinv | Tensor.erfinv(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfinv | Tensor.erfinv(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfinv_ | Tensor.erfinv_(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfinv_ | Tensor.erfinv_(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.erfinv_ | Tensor.erfinv_(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.expand | Tensor.expand(f64[2,3], -1, -1) | grad_fn[0] | grad_fn[0]: symgrad None, torch ExpandBackward0
Tensor.fill_ | Tensor.fill_(f32[2,3], 2.5) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch FillBackward2
Tensor.fill_ | Tensor.fill_(f64[2,3], 2.5) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch FillBackward2
Tensor.fill_ | Tensor.fill_(f64[2,3], 7) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch FillBackward2
Tensor.fill_ | Tensor.fill_(f64[2,3], True) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch FillBackward2
Tensor.fill_ | Tensor.fill_(f64[2,3], f32[]) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch FillBackward3
Tensor.fill_ | Tensor.fill_(f64[2,3], f64[1]) | error:missing | error:missing: torch raises RuntimeError: fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.
Tensor.fill_ | Tensor.fill_(f64[2,3], f64[]) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch FillBackward3
Tensor.fill_ | Tensor.fill_(f64[2,3], nan) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch FillBackward2
Tensor.fill_ | Tensor.fill_(i64[2,3], f64[]) | grad_fn[0] requires_grad[0] | grad_fn[0]: symgrad None, torch FillBackward3
Tensor.fill_ | Tensor.fill_(u8[2,3], 300) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8_t without overflow
Tensor.fix | Tensor.fix(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.fix | Tensor.fix(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.fix | Tensor.fix(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.fix_ | Tensor.fix_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.fix_ | Tensor.fix_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.fix_ | Tensor.fix_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.flatten | Tensor.flatten(f64[2,3,4], 2, 1) | error:missing | error:missing: torch raises RuntimeError: flatten() has invalid args: start_dim cannot come after end_dim
Tensor.flip | Tensor.flip(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.flip | Tensor.flip(f64[], (0,)) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
Tensor.fliplr | Tensor.fliplr(f64[3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.fliplr | Tensor.fliplr(f64[]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.flipud | Tensor.flipud(f64[]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.float_power | Tensor.float_power(c128[2,3], 2.5) | dtype[0] grad[0] value[0] | dtype[0]: symgrad float64, torch complex128
Tensor.float_power | Tensor.float_power(c128[2,3], c128[2,3]) | dtype[0] grad[0] grad[1] value[0] | dtype[0]: symgrad float64, torch complex128
Tensor.float_power | Tensor.float_power(c64[2,3], f64[3]) | dtype[0] grad[0] grad[1] value[0] | dtype[0]: symgrad float64, torch complex128
Tensor.float_power_ | Tensor.float_power_(c128[2,3], 2.5) | grad[0] grad_fn[0] value[0] | grad[0]: value at 0: symgrad nan, torch 2.268202108041
Tensor.float_power_ | Tensor.float_power_(c128[2,3], c128[2,3]) | grad[0] grad[1] grad_fn[0] value[0] | grad[0]: value at 0: symgrad nan, torch -0.407714088647
Tensor.float_power_ | Tensor.float_power_(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype ComplexFloat but the operation's result
Tensor.float_power_ | Tensor.float_power_(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Half but the operation's result require
Tensor.float_power_ | Tensor.float_power_(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Half but the operation's result require
Tensor.float_power_ | Tensor.float_power_(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Half but the operation's result require
Tensor.float_power_ | Tensor.float_power_(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Half but the operation's result require
Tensor.float_power_ | Tensor.float_power_(f32[16]:e, f32[16]:t) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Float but the operation's result requir
Tensor.float_power_ | Tensor.float_power_(f32[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Float but the operation's result requir
Tensor.float_power_ | Tensor.float_power_(f32[2,3], 2.5) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Float but the operation's result requir
Tensor.float_power_ | Tensor.float_power_(f32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Float but the operation's result requir
Tensor.float_power_ | Tensor.float_power_(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Float but the operation's result requir
Tensor.float_power_ | Tensor.float_power_(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: the base given to float_power_ has dtype Float but the operation's result requir
Tensor.floor | Tensor.floor(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
Tensor.floor | Tensor.floor(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
Tensor.floor | Tensor.floor(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
Tensor.floor_ | Tensor.floor_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
Tensor.floor_ | Tensor.floor_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
Tensor.floor_ | Tensor.floor_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
Tensor.floor_divide | Tensor.floor_divide(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "div_floor_cpu" not implemented for 'Bool'
Tensor.floor_divide | Tensor.floor_divide(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.floor_divide | Tensor.floor_divide(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.floor_divide | Tensor.floor_divide(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.floor_divide_ | Tensor.floor_divide_(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "div_floor_cpu" not implemented for 'Bool'
Tensor.floor_divide_ | Tensor.floor_divide_(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.floor_divide_ | Tensor.floor_divide_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.floor_divide_ | Tensor.floor_divide_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.floor_divide_ | Tensor.floor_divide_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch NotImplemented
Tensor.floor_divide_ | Tensor.floor_divide_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch NotImplemented
Tensor.fmax | Tensor.fmax(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: fmax not implemented for complex tensors.
Tensor.fmax | Tensor.fmax(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: fmax not implemented for complex tensors.
Tensor.fmax | Tensor.fmax(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
Tensor.fmin | Tensor.fmin(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: fmin not implemented for complex tensors.
Tensor.fmin | Tensor.fmin(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: fmin not implemented for complex tensors.
Tensor.fmin | Tensor.fmin(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
Tensor.fmod | Tensor.fmod(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "fmod_cpu" not implemented for 'Bool'
Tensor.fmod | Tensor.fmod(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.fmod | Tensor.fmod(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.fmod | Tensor.fmod(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.fmod | Tensor.fmod(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.fmod_ | Tensor.fmod_(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "fmod_cpu" not implemented for 'Bool'
Tensor.fmod_ | Tensor.fmod_(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.fmod_ | Tensor.fmod_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.fmod_ | Tensor.fmod_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.fmod_ | Tensor.fmod_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch FmodBackward1
Tensor.fmod_ | Tensor.fmod_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch FmodBackward1
Tensor.fmod_ | Tensor.fmod_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.frac | Tensor.frac(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac | Tensor.frac(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac | Tensor.frac(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac | Tensor.frac(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac | Tensor.frac(i32[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac | Tensor.frac(i64[16]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac | Tensor.frac(i64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac | Tensor.frac(u8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(i32[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(i64[16]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(i64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.frac_ | Tensor.frac_(u8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.gather | Tensor.gather(f64[2,3], 1, f64[2,2]:idx3) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.gather | Tensor.gather(f64[2,3], 1, i32[2,2]:idx3) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
Tensor.gather | Tensor.gather(f64[2,3], 1, i64[2,2]:idx4) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.gather | Tensor.gather(f64[2,3], 1, i64[2,2]:neg3) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.gather | Tensor.gather(f64[], 0, i64[]:idx1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch GatherBackward0
Tensor.ge | Tensor.ge(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.ge_ | Tensor.ge_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.greater | Tensor.greater(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.greater_ | Tensor.greater_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.greater_equal | Tensor.greater_equal(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.greater_equal_ | Tensor.greater_equal_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.gt | Tensor.gt(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.gt_ | Tensor.gt_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.heaviside | Tensor.heaviside(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for complex tensors.
Tensor.heaviside | Tensor.heaviside(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for complex tensors.
Tensor.heaviside | Tensor.heaviside(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(f64[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(f64[], i32[3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(i32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(i64[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(i64[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside | Tensor.heaviside(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside_ | Tensor.heaviside_(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.heaviside_ | Tensor.heaviside_(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for complex tensors.
Tensor.heaviside_ | Tensor.heaviside_(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for complex tensors.
Tensor.heaviside_ | Tensor.heaviside_(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside_ | Tensor.heaviside_(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside_ | Tensor.heaviside_(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside_ | Tensor.heaviside_(f64[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside_ | Tensor.heaviside_(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside_ | Tensor.heaviside_(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.heaviside_ | Tensor.heaviside_(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.heaviside_ | Tensor.heaviside_(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
Tensor.hypot | Tensor.hypot(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Bool'
Tensor.hypot | Tensor.hypot(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
Tensor.hypot | Tensor.hypot(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.hypot | Tensor.hypot(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.hypot | Tensor.hypot(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Int'
Tensor.hypot | Tensor.hypot(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
Tensor.hypot | Tensor.hypot(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
Tensor.hypot | Tensor.hypot(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
Tensor.hypot | Tensor.hypot(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
Tensor.hypot | Tensor.hypot(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Byte'
Tensor.hypot | Tensor.hypot(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Byte'
Tensor.hypot | Tensor.hypot(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
Tensor.hypot | Tensor.hypot(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Byte'
Tensor.hypot_ | Tensor.hypot_(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.hypot_ | Tensor.hypot_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.hypot_ | Tensor.hypot_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.hypot_ | Tensor.hypot_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 3: symgrad 1.32023168, torch 1.31978524
Tensor.hypot_ | Tensor.hypot_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch HypotBackward0
Tensor.hypot_ | Tensor.hypot_(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.hypot_ | Tensor.hypot_(i64[2,3], 3) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.hypot_ | Tensor.hypot_(i64[2,3], True) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.hypot_ | Tensor.hypot_(u8[2,3], -1) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.index_add | Tensor.index_add(f32[2,3], 1, i64[2]:perm3, f32[2,2]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add | Tensor.index_add(f64[2,3], -1, i64[2]:neg3, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_add | Tensor.index_add(f64[2,3], 0, i64[2]:perm2, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add | Tensor.index_add(f64[2,3], 1, f64[2]:idx3, f64[2,2]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.index_add | Tensor.index_add(f64[2,3], 1, i32[2]:perm3, f64[2,2]) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
Tensor.index_add | Tensor.index_add(f64[2,3], 1, i64[0]:idx3, f64[2,0]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add | Tensor.index_add(f64[2,3], 1, i64[2,2]:idx3, f64[2,2]) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.index_add | Tensor.index_add(f64[2,3], 1, i64[2]:idx4, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_add | Tensor.index_add(f64[2,3], 1, i64[2]:perm3, f64[2,2]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add | Tensor.index_add(f64[2,3], 1, i64[2]:perm3, f64[2,2], alpha=2) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add | Tensor.index_add(f64[2,3], 1, i64[4]:idx3, f64[2,4]) #dup | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add | Tensor.index_add(f64[], 0, i64[1]:idx1, f64[1]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_add_ | Tensor.index_add_(f32[2,3], 1, i64[2]:perm3, f32[2,2]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add_ | Tensor.index_add_(f64[2,3], -1, i64[2]:neg3, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 0, i64[2]:perm2, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, f64[2]:idx3, f64[2,2]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, i32[2]:perm3, f64[2,2]) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, i64[0]:idx3, f64[2,0]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, i64[2,2]:idx3, f64[2,2]) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, i64[2]:idx4, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, i64[2]:perm3, f64[2,2]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, i64[2]:perm3, f64[2,2], alpha=2) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add_ | Tensor.index_add_(f64[2,3], 1, i64[4]:idx3, f64[2,4]) #dup | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
Tensor.index_add_ | Tensor.index_add_(f64[], 0, i64[1]:idx1, f64[1]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_copy | Tensor.index_copy(f64[2,3], -1, i64[2]:neg3, f64[2,2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): index -1 is out of bounds for dimension 1 with size 3
Tensor.index_copy | Tensor.index_copy(f64[2,3], 1, f64[2]:idx3, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_copy | Tensor.index_copy(f64[2,3], 1, i32[2]:perm3, f64[2,2]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.index_copy | Tensor.index_copy(f64[2,3], 1, i64[2,2]:idx3, f64[2,2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): Index should have dimension 1 or 0 (got 2)
Tensor.index_copy | Tensor.index_copy(f64[2,3], 1, i64[]:idx3, f64[2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): When source and destination are not scalars, their dimensionality
Tensor.index_copy | Tensor.index_copy(f64[], 0, i64[1]:idx1, f64[1]) | error:extra | error:extra: symgrad raises IndexError: too many indices for tensor of dimension 0
Tensor.index_copy_ | Tensor.index_copy_(f64[2,3], -1, i64[2]:neg3, f64[2,2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): index -1 is out of bounds for dimension 1 with size 3
Tensor.index_copy_ | Tensor.index_copy_(f64[2,3], 1, f64[2]:idx3, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_copy_ | Tensor.index_copy_(f64[2,3], 1, i32[2]:perm3, f64[2,2]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.index_copy_ | Tensor.index_copy_(f64[2,3], 1, i64[2,2]:idx3, f64[2,2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): Index should have dimension 1 or 0 (got 2)
Tensor.index_copy_ | Tensor.index_copy_(f64[2,3], 1, i64[]:idx3, f64[2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): When source and destination are not scalars, their dimensionality
Tensor.index_copy_ | Tensor.index_copy_(f64[], 0, i64[1]:idx1, f64[1]) | error:extra | error:extra: symgrad raises IndexError: too many indices for tensor of dimension 0
Tensor.index_fill | Tensor.index_fill(f32[2,3], 1, i64[2]:perm3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill | Tensor.index_fill(f64[2,3], -1, i64[2]:neg3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill | Tensor.index_fill(f64[2,3], 0, i64[2]:perm2, -1.0) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill | Tensor.index_fill(f64[2,3], 1, f64[2]:idx3, 1.5) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.index_fill | Tensor.index_fill(f64[2,3], 1, i32[2]:perm3, 1.5) | error:missing | error:missing: torch raises IndexError: index_fill_(): Expected dtype int64 for index.
Tensor.index_fill | Tensor.index_fill(f64[2,3], 1, i64[0]:idx3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill | Tensor.index_fill(f64[2,3], 1, i64[2,2]:idx3, 1.5) | error:missing | error:missing: torch raises RuntimeError: Index has to be a vector/scalar
Tensor.index_fill | Tensor.index_fill(f64[2,3], 1, i64[2]:perm3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill | Tensor.index_fill(f64[2,3], 1, i64[2]:perm3, f64[]) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward1, torch IndexFillBackward1
Tensor.index_fill | Tensor.index_fill(f64[2,3], 1, i64[]:idx3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill | Tensor.index_fill(f64[], 0, i64[1]:idx1, 1.5) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
Tensor.index_fill_ | Tensor.index_fill_(f32[2,3], 1, i64[2]:perm3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], -1, i64[2]:neg3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 0, i64[2]:perm2, -1.0) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 1, f64[2]:idx3, 1.5) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 1, i32[2]:perm3, 1.5) | error:missing | error:missing: torch raises IndexError: index_fill_(): Expected dtype int64 for index.
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 1, i64[0]:idx3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 1, i64[2,2]:idx3, 1.5) | error:missing | error:missing: torch raises RuntimeError: Index has to be a vector/scalar
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 1, i64[2]:perm3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 1, i64[2]:perm3, f64[]) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward1, torch IndexFillBackward1
Tensor.index_fill_ | Tensor.index_fill_(f64[2,3], 1, i64[]:idx3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
Tensor.index_fill_ | Tensor.index_fill_(f64[], 0, i64[1]:idx1, 1.5) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
Tensor.index_put | Tensor.index_put(f64[2,3], (i32[2]:perm2,), f64[3]) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
Tensor.index_put | Tensor.index_put(f64[2,3], (i64[2]:perm2, i64[2]:perm3), 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.index_put_ | Tensor.index_put_(f64[2,3], (i32[2]:perm2,), f64[3]) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
Tensor.index_put_ | Tensor.index_put_(f64[2,3], (i64[2]:perm2, i64[2]:perm3), 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.index_select | Tensor.index_select(f32[2,3], 1, i64[2]:perm3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
Tensor.index_select | Tensor.index_select(f64[2,3], -1, i64[2]:neg3) | error:missing | error:missing: torch raises RuntimeError: INDICES element is out of DATA bounds, id=-1 axis_dim=3
Tensor.index_select | Tensor.index_select(f64[2,3], 0, i64[2]:perm2) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
Tensor.index_select | Tensor.index_select(f64[2,3], 1, f64[2]:idx3) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_select | Tensor.index_select(f64[2,3], 1, i32[2]:perm3) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
Tensor.index_select | Tensor.index_select(f64[2,3], 1, i64[0]:idx3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
Tensor.index_select | Tensor.index_select(f64[2,3], 1, i64[2]:idx4) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.index_select | Tensor.index_select(f64[2,3], 1, i64[2]:perm3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
Tensor.index_select | Tensor.index_select(f64[2,3], 1, i64[]:idx3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
Tensor.index_select | Tensor.index_select(f64[], 0, i64[1]:idx1) | error:extra | error:extra: symgrad raises IndexError: too many indices for tensor of dimension 0
Tensor.inner | Tensor.inner(f64[0], f64[0]) | error:extra | error:extra: symgrad raises RuntimeError: shape '[-1, 0]' is invalid for input of size 0
Tensor.inverse | Tensor.inverse(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.inverse | Tensor.inverse(f64[3,3]:sing) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
Tensor.isclose | Tensor.isclose(b8[2,3], b8[2,3]) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
Tensor.isclose | Tensor.isclose(b8[2,3]@2, b8[2,3]@2) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
Tensor.isclose | Tensor.isclose(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Float did not match Double
Tensor.isclose | Tensor.isclose(f64[2,3], f64[2,3], rtol=-1.0) | error:missing | error:missing: torch raises RuntimeError: rtol must be greater than or equal to zero, but got -1
Tensor.isclose | Tensor.isclose(i64[2,3]@1, f64[2,3]@1) | error:missing | error:missing: torch raises RuntimeError: Long did not match Double
Tensor.isneginf | Tensor.isneginf(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support complex inputs.
Tensor.isneginf | Tensor.isneginf(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support complex inputs.
Tensor.isneginf | Tensor.isneginf(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support complex inputs.
Tensor.isposinf | Tensor.isposinf(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support complex inputs.
Tensor.isposinf | Tensor.isposinf(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support complex inputs.
Tensor.isposinf | Tensor.isposinf(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support complex inputs.
Tensor.kthvalue | Tensor.kthvalue(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "kthvalue_cpu" not implemented for 'Bool'
Tensor.kthvalue | Tensor.kthvalue(f64[0,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
Tensor.kthvalue | Tensor.kthvalue(f64[16]:e, 3) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
Tensor.kthvalue | Tensor.kthvalue(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
Tensor.kthvalue | Tensor.kthvalue(f64[2,3], 1, dim=0, keepdim=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch KthvalueBackward0
Tensor.kthvalue | Tensor.kthvalue(f64[2,3], 2, 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
Tensor.kthvalue | Tensor.kthvalue(f64[2,3], 3, -1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch KthvalueBackward0
Tensor.kthvalue | Tensor.kthvalue(f64[3,4]:t, 2, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
Tensor.kthvalue | Tensor.kthvalue(f64[], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch KthvalueBackward0
Tensor.ldexp | Tensor.ldexp(c64[2,3], f64[3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
Tensor.ldexp | Tensor.ldexp(f64[], i32[3]) | dtype[0] | dtype[0]: symgrad float32, torch float64
Tensor.ldexp_ | Tensor.ldexp_(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.ldexp_ | Tensor.ldexp_(c64[2,3], f64[3]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.ldexp_ | Tensor.ldexp_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 4: symgrad 3.23543239, torch 3.23632812
Tensor.ldexp_ | Tensor.ldexp_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch LdexpBackward0
Tensor.ldexp_ | Tensor.ldexp_(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.ldexp_ | Tensor.ldexp_(i64[2,3], 3) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.ldexp_ | Tensor.ldexp_(i64[2,3], True) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.ldexp_ | Tensor.ldexp_(u8[2,3], -1) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.le | Tensor.le(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.le_ | Tensor.le_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.lerp | Tensor.lerp(b8[2,3]:n, b8[2,3]:n, b8[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Bool'
Tensor.lerp | Tensor.lerp(f32[2,3]:n, f64[3]:n, f32[2,1]:01) | error:missing | error:missing: torch raises RuntimeError: expected dtype float for `end` but got dtype double
Tensor.lerp | Tensor.lerp(i32[2,3]:n, i32[2,3]:n, i32[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Int'
Tensor.lerp | Tensor.lerp(i64[2,3]:n, f32[2,3]:n, f64[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: expected dtype long int for `end` but got dtype float
Tensor.lerp | Tensor.lerp(i64[2,3]:n, i64[2,3]:n, i64[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Long'
Tensor.lerp | Tensor.lerp(u8[2,3]:n, u8[2,3]:n, u8[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Byte'
Tensor.lerp_ | Tensor.lerp_(f32[2,3]:n, f64[3]:n, f32[2,1]:01) | error:missing | error:missing: torch raises RuntimeError: expected dtype float for `end` but got dtype double
Tensor.less | Tensor.less(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.less_ | Tensor.less_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.less_equal | Tensor.less_equal(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.less_equal_ | Tensor.less_equal_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.lgamma | Tensor.lgamma(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.lgamma | Tensor.lgamma(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.lgamma | Tensor.lgamma(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.lgamma_ | Tensor.lgamma_(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.lgamma_ | Tensor.lgamma_(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.lgamma_ | Tensor.lgamma_(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.log_softmax | Tensor.log_softmax(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Bool'
Tensor.log_softmax | Tensor.log_softmax(f32[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
Tensor.log_softmax | Tensor.log_softmax(f64[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
Tensor.log_softmax | Tensor.log_softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Int'
Tensor.log_softmax | Tensor.log_softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Long'
Tensor.log_softmax | Tensor.log_softmax(i64[2,3], 1, dtype=torch.float32) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
Tensor.log_softmax | Tensor.log_softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Byte'
Tensor.logaddexp | Tensor.logaddexp(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Bool'
Tensor.logaddexp | Tensor.logaddexp(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
Tensor.logaddexp | Tensor.logaddexp(c128[2,3], c128[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
Tensor.logaddexp | Tensor.logaddexp(c64[2,3], f64[3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
Tensor.logaddexp | Tensor.logaddexp(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Int'
Tensor.logaddexp | Tensor.logaddexp(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
Tensor.logaddexp | Tensor.logaddexp(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
Tensor.logaddexp | Tensor.logaddexp(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
Tensor.logaddexp | Tensor.logaddexp(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
Tensor.logaddexp | Tensor.logaddexp(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Byte'
Tensor.logaddexp | Tensor.logaddexp(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Byte'
Tensor.logaddexp | Tensor.logaddexp(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
Tensor.logaddexp | Tensor.logaddexp(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Byte'
Tensor.logaddexp2 | Tensor.logaddexp2(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Bool'
Tensor.logaddexp2 | Tensor.logaddexp2(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
Tensor.logaddexp2 | Tensor.logaddexp2(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.logaddexp2 | Tensor.logaddexp2(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.logaddexp2 | Tensor.logaddexp2(f16[2,3], f16[2,3]) | value[0] | value[0]: at 0: symgrad 0.024414, torch 0.024658
Tensor.logaddexp2 | Tensor.logaddexp2(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Int'
Tensor.logaddexp2 | Tensor.logaddexp2(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
Tensor.logaddexp2 | Tensor.logaddexp2(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
Tensor.logaddexp2 | Tensor.logaddexp2(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
Tensor.logaddexp2 | Tensor.logaddexp2(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
Tensor.logaddexp2 | Tensor.logaddexp2(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Byte'
Tensor.logaddexp2 | Tensor.logaddexp2(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Byte'
Tensor.logaddexp2 | Tensor.logaddexp2(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
Tensor.logaddexp2 | Tensor.logaddexp2(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Byte'
Tensor.logcumsumexp | Tensor.logcumsumexp(f64[16]:e, 0) | grad[0] | grad[0]: value at 12: symgrad 0.0, torch nan
Tensor.logdet | Tensor.logdet(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.logdet | Tensor.logdet(f64[3,3]:sing) | grad[0] value[0] | grad[0]: value at 0: symgrad nan, torch 0.0
Tensor.logical_and_ | Tensor.logical_and_(f32[2,3], f32[2,3]) #leaf | error:extra | error:extra: symgrad raises RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
Tensor.logical_not_ | Tensor.logical_not_(f32[2,3]) #leaf | error:extra | error:extra: symgrad raises RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
Tensor.logical_or_ | Tensor.logical_or_(f32[2,3], f32[2,3]) #leaf | error:extra | error:extra: symgrad raises RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
Tensor.logical_xor_ | Tensor.logical_xor_(f32[2,3], f32[2,3]) #leaf | error:extra | error:extra: symgrad raises RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
Tensor.logit | Tensor.logit(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
Tensor.logit | Tensor.logit(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
Tensor.logit | Tensor.logit(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexFloat'
Tensor.logit | Tensor.logit(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
Tensor.logit | Tensor.logit(f64[16]:e, 1e-06) | grad[0] | grad[0]: value at 10: symgrad nan, torch 0.0
Tensor.logit_ | Tensor.logit_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
Tensor.logit_ | Tensor.logit_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
Tensor.logit_ | Tensor.logit_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexFloat'
Tensor.logit_ | Tensor.logit_(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
Tensor.logit_ | Tensor.logit_(f64[16]:e, 1e-06) | grad[0] | grad[0]: value at 10: symgrad nan, torch 0.0
Tensor.logsumexp | Tensor.logsumexp(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.lt | Tensor.lt(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.lt_ | Tensor.lt_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.masked_fill | Tensor.masked_fill(f64[3], b8[2,3], 1.5) | error:extra | error:extra: symgrad raises RuntimeError: masked_fill: the mask of shape torch.Size([2, 3]) does not broadcast to the inpu
Tensor.masked_scatter | Tensor.masked_scatter(f64[3], b8[2,3], f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: expand: the target shape (3,) has fewer dimensions than the tensor's shape (2, 3
Tensor.masked_select | Tensor.masked_select(f32[2,3], b8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
Tensor.masked_select | Tensor.masked_select(f64[0,3], b8[0,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
Tensor.masked_select | Tensor.masked_select(f64[2,3], b8[2,1]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
Tensor.masked_select | Tensor.masked_select(f64[2,3], b8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
Tensor.masked_select | Tensor.masked_select(f64[2,3], b8[3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
Tensor.masked_select | Tensor.masked_select(f64[2,3], b8[4]) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.masked_select | Tensor.masked_select(f64[2,3], i64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.masked_select | Tensor.masked_select(f64[2,3], u8[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.masked_select | Tensor.masked_select(f64[3], b8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
Tensor.masked_select | Tensor.masked_select(f64[], b8[]) | error:extra | error:extra: symgrad raises IndexError: list index out of range
Tensor.matmul | Tensor.matmul(f64[1,2,3], f64[4,3,2]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch CloneBackward0
Tensor.matmul | Tensor.matmul(f64[2,3], [[1.0], [2.0], [3.0]]) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.matrix_power | Tensor.matrix_power(b8[3,3], 2) | error:missing | error:missing: torch raises RuntimeError: "addmm_impl_cpu_" not implemented for 'Bool'
Tensor.matrix_power | Tensor.matrix_power(f64[3,3], -1) | error:extra | error:extra: symgrad raises RuntimeError: matrix_power with a negative exponent (-1) needs an inverse: compute matrix_powe
Tensor.matrix_power | Tensor.matrix_power(f64[3,3], -2) | error:extra | error:extra: symgrad raises RuntimeError: matrix_power with a negative exponent (-2) needs an inverse: compute matrix_powe
Tensor.matrix_power | Tensor.matrix_power(f64[3,3]:sing, -1) | error:extra | error:extra: symgrad raises RuntimeError: matrix_power with a negative exponent (-1) needs an inverse: compute matrix_powe
Tensor.matrix_power | Tensor.matrix_power(i32[3,3], 2) | dtype[0] | dtype[0]: symgrad int64, torch int32
Tensor.matrix_power | Tensor.matrix_power(u8[3,3], 2) | dtype[0] | dtype[0]: symgrad int64, torch uint8
Tensor.max | Tensor.max(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "max_all" not implemented for 'ComplexDouble'
Tensor.max | Tensor.max(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.max | Tensor.max(f64[], -1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MaxBackward0
Tensor.max | Tensor.max(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MaxBackward0
Tensor.maximum | Tensor.maximum(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: maximum not implemented for complex tensors.
Tensor.maximum | Tensor.maximum(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: maximum not implemented for complex tensors.
Tensor.maximum | Tensor.maximum(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
Tensor.mean | Tensor.mean(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.mean | Tensor.mean(f64[2,3], dim=None) | grad_fn[0] | grad_fn[0]: symgrad MeanBackward0, torch MeanBackward1
Tensor.median | Tensor.median(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'Bool'
Tensor.median | Tensor.median(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'ComplexDouble'
Tensor.median | Tensor.median(f32[2,3]:t) | grad[0] | grad[0]: value at 1: symgrad 1.0, torch 0.333333343
Tensor.median | Tensor.median(f64[0,3]) | error:extra | error:extra: symgrad raises RuntimeError: kthvalue(): selected number k out of range for dimension 0
Tensor.median | Tensor.median(f64[0]) | error:extra | error:extra: symgrad raises RuntimeError: kthvalue(): selected number k out of range for dimension 0
Tensor.min | Tensor.min(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "min_all" not implemented for 'ComplexDouble'
Tensor.min | Tensor.min(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
Tensor.min | Tensor.min(f64[], -1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MinBackward0
Tensor.min | Tensor.min(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MinBackward0
Tensor.minimum | Tensor.minimum(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: minimum not implemented for complex tensors.
Tensor.minimum | Tensor.minimum(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: minimum not implemented for complex tensors.
Tensor.minimum | Tensor.minimum(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
Tensor.mode | Tensor.mode(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "mode_cpu" not implemented for 'ComplexDouble'
Tensor.mode | Tensor.mode(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[0,3]) | error:extra | error:extra: symgrad raises ValueError: Cannot apply_along_axis when any iteration dimensions are 0
Tensor.mode | Tensor.mode(f64[0,3], 1) | error:extra | error:extra: symgrad raises ValueError: Cannot apply_along_axis when any iteration dimensions are 0
Tensor.mode | Tensor.mode(f64[0]) | error:class | error:class: symgrad ValueError, torch IndexError
Tensor.mode | Tensor.mode(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[2,3], -1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[2,3], dim=0, keepdim=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[3,4]:t, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[4,4]:e, 1) | grad_fn[0] value[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[5,2]:e, 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ModeBackward0
Tensor.mode | Tensor.mode(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ModeBackward0
Tensor.movedim | Tensor.movedim(f64[], 0, 0) | error:extra | error:extra: symgrad raises IndexError: list assignment index out of range
Tensor.msort | Tensor.msort(f32[3,2]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.msort | Tensor.msort(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.msort | Tensor.msort(f64[3,2]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.msort | Tensor.msort(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch SortBackward0
Tensor.mul | Tensor.mul(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.mul_ | Tensor.mul_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch MulBackward0
Tensor.mul_ | Tensor.mul_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad -1.21728516, torch -1.21679688
Tensor.mul_ | Tensor.mul_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch MulBackward0
Tensor.mul_ | Tensor.mul_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.multiply | Tensor.multiply(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.multiply_ | Tensor.multiply_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch MulBackward0
Tensor.multiply_ | Tensor.multiply_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad -1.21728516, torch -1.21679688
Tensor.multiply_ | Tensor.multiply_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch MulBackward0
Tensor.multiply_ | Tensor.multiply_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.mvlgamma | Tensor.mvlgamma(b8[2,3]:p, 2) | error:missing | error:missing: torch raises RuntimeError: The input tensor may not be a boolean tensor.
Tensor.nan_to_num | Tensor.nan_to_num(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: nan_to_num does not support automatic differentiation for outputs with complex d
Tensor.nan_to_num | Tensor.nan_to_num(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: nan_to_num does not support automatic differentiation for outputs with complex d
Tensor.nan_to_num | Tensor.nan_to_num(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: nan_to_num does not support automatic differentiation for outputs with complex d
Tensor.nan_to_num_ | Tensor.nan_to_num_(c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad CloneBackward0, torch NanToNumBackward0
Tensor.nan_to_num_ | Tensor.nan_to_num_(c128[8]:e) | grad[0] grad_fn[0] value[0] | grad[0]: value at 3: symgrad 1.625, torch 0.0
Tensor.nan_to_num_ | Tensor.nan_to_num_(c64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad CloneBackward0, torch NanToNumBackward0
Tensor.nanmean | Tensor.nanmean(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.nanmean | Tensor.nanmean(i64[2,3], dtype=torch.float64) | error:missing | error:missing: torch raises RuntimeError: nanmean(): expected input to have floating point or complex dtype but got Long
Tensor.nanmedian | Tensor.nanmedian(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'Bool'
Tensor.nanmedian | Tensor.nanmedian(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'ComplexDouble'
Tensor.nanmedian | Tensor.nanmedian(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
Tensor.nanmedian | Tensor.nanmedian(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
Tensor.nanmedian | Tensor.nanmedian(f32[2,3]:t) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad 1.0, torch 0.333333343
Tensor.nanmedian | Tensor.nanmedian(f64[0,3]) | error:extra | error:extra: symgrad raises IndexError: gather: index out of range for dimension 0 of size 0
Tensor.nanmedian | Tensor.nanmedian(f64[0,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[0]) | error:extra | error:extra: symgrad raises IndexError: gather: index out of range for dimension 0 of size 0
Tensor.nanmedian | Tensor.nanmedian(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
Tensor.nanmedian | Tensor.nanmedian(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
Tensor.nanmedian | Tensor.nanmedian(f64[2,3], -1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[2,3], dim=0, keepdim=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[3,4]:t, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[4,4]:e, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[5,2]:e, 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
Tensor.nanmedian | Tensor.nanmedian(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
Tensor.nanmedian | Tensor.nanmedian(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward1
Tensor.nanquantile | Tensor.nanquantile(f16[2,3], 0.25) | error:missing | error:missing: torch raises RuntimeError: quantile() input tensor must be either float or double dtype
Tensor.nanquantile | Tensor.nanquantile(f64[0], 0.5) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.nansum | Tensor.nansum(b8[2,3], dtype=torch.int32) | dtype[0] | dtype[0]: symgrad int64, torch int32
Tensor.nansum | Tensor.nansum(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: nansum on CPU does not support complex inputs
Tensor.nansum | Tensor.nansum(f32[2,3], dtype=torch.int64) | error:missing | error:missing: torch raises RuntimeError: Autograd not support dtype: Long
Tensor.nansum | Tensor.nansum(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.narrow | Tensor.narrow(f64[2,3], 1, 2, 2) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.ne | Tensor.ne(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.ne_ | Tensor.ne_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.neg | Tensor.neg(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.neg_ | Tensor.neg_(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.negative | Tensor.negative(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.negative_ | Tensor.negative_(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.new | Tensor.new(f64[2,3], (2, 3)) | shape[0] | shape[0]: symgrad [2, 3], torch [2]
Tensor.new | Tensor.new(f64[2,3], f64[2]) | grad[1] grad_fn[0] requires_grad[0] | grad[1]: symgrad none, torch a gradient
Tensor.new_empty | Tensor.new_empty(f64[2,3], (-1,)) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.new_ones | Tensor.new_ones(f64[2,3], (-1,)) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.new_zeros | Tensor.new_zeros(f64[2,3], (-1,)) | error:class | error:class: symgrad ValueError, torch RuntimeError
Tensor.nextafter | Tensor.nextafter(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Bool'
Tensor.nextafter | Tensor.nextafter(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
Tensor.nextafter | Tensor.nextafter(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.nextafter | Tensor.nextafter(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.nextafter | Tensor.nextafter(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Int'
Tensor.nextafter | Tensor.nextafter(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
Tensor.nextafter | Tensor.nextafter(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
Tensor.nextafter | Tensor.nextafter(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
Tensor.nextafter | Tensor.nextafter(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
Tensor.nextafter | Tensor.nextafter(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Byte'
Tensor.nextafter | Tensor.nextafter(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Byte'
Tensor.nextafter | Tensor.nextafter(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
Tensor.nextafter | Tensor.nextafter(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Byte'
Tensor.nextafter_ | Tensor.nextafter_(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.nextafter_ | Tensor.nextafter_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.nextafter_ | Tensor.nextafter_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.nextafter_ | Tensor.nextafter_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch NextafterBackward0
Tensor.nextafter_ | Tensor.nextafter_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch NextafterBackward0
Tensor.nextafter_ | Tensor.nextafter_(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.nextafter_ | Tensor.nextafter_(i64[2,3], 3) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.nextafter_ | Tensor.nextafter_(i64[2,3], True) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.nextafter_ | Tensor.nextafter_(u8[2,3], -1) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.norm | Tensor.norm(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got Co
Tensor.norm | Tensor.norm(f64[2,3], 1, True) | error:missing | error:missing: torch raises TypeError: linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints, but fou
Tensor.norm | Tensor.norm(f64[2,3], dtype=torch.float32) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: the dtype of the input (Double) should be convertible withou
Tensor.norm | Tensor.norm(i64[2,3], dtype=torch.float64) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got Lo
Tensor.not_equal | Tensor.not_equal(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.not_equal_ | Tensor.not_equal_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.outer | Tensor.outer(f64[3], 2.0) | error:class | error:class: symgrad AttributeError, torch TypeError
Tensor.polygamma_ | Tensor.polygamma_(f64[2,3]:p, 0) | grad_fn[0] | grad_fn[0]: symgrad PolygammaBackward0, torch PolygammaBackward1
Tensor.polygamma_ | Tensor.polygamma_(f64[2,3]:p, 1) | grad_fn[0] | grad_fn[0]: symgrad PolygammaBackward0, torch PolygammaBackward1
Tensor.polygamma_ | Tensor.polygamma_(f64[2,3]:p, 2) | grad_fn[0] | grad_fn[0]: symgrad PolygammaBackward0, torch PolygammaBackward1
Tensor.positive | Tensor.positive(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.pow | Tensor.pow(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "pow" not implemented for 'Bool'
Tensor.pow | Tensor.pow(b8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(c128[2,3], c128[2,3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.pow | Tensor.pow(c64[2,3], f64[3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.pow | Tensor.pow(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type c10::Half without overflow
Tensor.pow | Tensor.pow(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int32
Tensor.pow | Tensor.pow(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(i64[14]:t, i64[14]:t) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(i64[2,3], True) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(i64[2,3], i64[2,3]:t) | dtype[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(i64[], u8[3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
Tensor.pow | Tensor.pow(u8[2,3], b8[2,3]) | dtype[0] | dtype[0]: symgrad float32, torch uint8
Tensor.pow | Tensor.pow(u8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
Tensor.pow | Tensor.pow(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
Tensor.pow_ | Tensor.pow_(c128[2,3], c128[2,3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
Tensor.pow_ | Tensor.pow_(c64[2,3], f64[3]) | grad:error grad_fn[0] | grad:error: symgrad RuntimeError, torch no error
Tensor.pow_ | Tensor.pow_(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type c10::Half without overflow
Tensor.pow_ | Tensor.pow_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 4: symgrad 0.178466782, torch 0.178536728
Tensor.pow_ | Tensor.pow_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch PowBackward1
Tensor.pow_ | Tensor.pow_(i32[2,3], i32[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int32 (pow_)
Tensor.pow_ | Tensor.pow_(i32[2,3], i64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int32 (pow_)
Tensor.pow_ | Tensor.pow_(i64[14]:e, i64[14]:e) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.pow_ | Tensor.pow_(i64[14]:t, i64[14]:t) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.pow_ | Tensor.pow_(i64[2,3], True) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.pow_ | Tensor.pow_(i64[2,3], i64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.pow_ | Tensor.pow_(i64[2,3], i64[2,3]:t) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type int64 (pow_)
Tensor.pow_ | Tensor.pow_(u8[2,3], b8[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type uint8 (pow_)
Tensor.pow_ | Tensor.pow_(u8[2,3], i64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type uint8 (pow_)
Tensor.pow_ | Tensor.pow_(u8[2,3], u8[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: result type float32 can't be cast to the desired output type uint8 (pow_)
Tensor.prod | Tensor.prod(f32[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
Tensor.prod | Tensor.prod(f32[2,3], dtype=torch.int64) | error:missing | error:missing: torch raises RuntimeError: Autograd not support dtype: Long
Tensor.prod | Tensor.prod(f64[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
Tensor.quantile | Tensor.quantile(f16[2,3], 0.25) | error:missing | error:missing: torch raises RuntimeError: quantile() input tensor must be either float or double dtype
Tensor.quantile | Tensor.quantile(f64[0], 0.5) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.rad2deg | Tensor.rad2deg(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
Tensor.rad2deg | Tensor.rad2deg(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
Tensor.rad2deg | Tensor.rad2deg(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
Tensor.rad2deg_ | Tensor.rad2deg_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
Tensor.rad2deg_ | Tensor.rad2deg_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
Tensor.rad2deg_ | Tensor.rad2deg_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
Tensor.random_ | Tensor.random_(u8[3,4]) | value[0] | value[0]: at 0: symgrad 32, torch 172
Tensor.relu | Tensor.relu(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Boolean inputs not supported for relu
Tensor.relu | Tensor.relu(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
Tensor.relu | Tensor.relu(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
Tensor.relu | Tensor.relu(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
Tensor.relu_ | Tensor.relu_(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Boolean inputs not supported for relu
Tensor.relu_ | Tensor.relu_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
Tensor.relu_ | Tensor.relu_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
Tensor.relu_ | Tensor.relu_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
Tensor.remainder | Tensor.remainder(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "remainder_cpu" not implemented for 'Bool'
Tensor.remainder | Tensor.remainder(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.remainder | Tensor.remainder(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.remainder | Tensor.remainder(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.remainder | Tensor.remainder(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.remainder_ | Tensor.remainder_(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "remainder_cpu" not implemented for 'Bool'
Tensor.remainder_ | Tensor.remainder_(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.remainder_ | Tensor.remainder_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.remainder_ | Tensor.remainder_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.remainder_ | Tensor.remainder_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch RemainderBackward1
Tensor.remainder_ | Tensor.remainder_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch RemainderBackward1
Tensor.remainder_ | Tensor.remainder_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.repeat_interleave | Tensor.repeat_interleave(f32[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
Tensor.repeat_interleave | Tensor.repeat_interleave(f64[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
Tensor.repeat_interleave | Tensor.repeat_interleave(f64[2,3], 2, 0) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
Tensor.repeat_interleave | Tensor.repeat_interleave(f64[2,3], 2, dim=-1) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
Tensor.repeat_interleave | Tensor.repeat_interleave(f64[2,3], i64[2]:idx3, 0) | error:extra | error:extra: symgrad raises RuntimeError: repeat_interleave with a tensor of repeats is not supported yet; give an int
Tensor.repeat_interleave | Tensor.repeat_interleave(f64[2,3], i64[3]:idx3, 1) | error:extra | error:extra: symgrad raises RuntimeError: repeat_interleave with a tensor of repeats is not supported yet; give an int
Tensor.roll | Tensor.roll(f32[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
Tensor.roll | Tensor.roll(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
Tensor.roll | Tensor.roll(f64[2,3], 7) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
Tensor.roll | Tensor.roll(f64[], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
Tensor.round | Tensor.round(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
Tensor.round | Tensor.round(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
Tensor.round | Tensor.round(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexFloat'
Tensor.round_ | Tensor.round_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
Tensor.round_ | Tensor.round_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
Tensor.round_ | Tensor.round_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexFloat'
Tensor.rsqrt | Tensor.rsqrt(c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(c128[8]:e) | grad[0] grad_fn[0] | grad[0]: value at 0: symgrad nan, torch -0.0
Tensor.rsqrt | Tensor.rsqrt(c64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt | Tensor.rsqrt(f64[]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(c128[8]:e) | grad[0] grad_fn[0] | grad[0]: value at 0: symgrad nan, torch -0.0
Tensor.rsqrt_ | Tensor.rsqrt_(c64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.rsqrt_ | Tensor.rsqrt_(f64[]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
Tensor.scatter | Tensor.scatter(f32[2,4], 1, i64[2,3]:perm4, f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter | Tensor.scatter(f64[2,4], -1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter | Tensor.scatter(f64[2,4], 0, i64[1,4]:idx2, f64[1,4]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i32[2,3]:perm4, f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: scatter(): Expected dtype int64 for index, got int32
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[0,3]:idx4, f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:idx4, f64[2,3]) #dup | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:idx4, f64[2,3], reduce='add') #dup | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:neg4, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm4, 2.0, reduce='multiply') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm4, 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward1
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[2,3], reduce='add') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[2,3], reduce='multiply') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[3,5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm4, value=1.0) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward1
Tensor.scatter | Tensor.scatter(f64[2,4], 1, i64[2,3]:perm5, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter | Tensor.scatter(f64[], 0, i64[]:idx1, f64[]) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
Tensor.scatter_ | Tensor.scatter_(f32[2,4], 1, i64[2,3]:perm4, f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter_ | Tensor.scatter_(f64[2,4], -1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 0, i64[1,4]:idx2, f64[1,4]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i32[2,3]:perm4, f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: scatter(): Expected dtype int64 for index, got int32
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[0,3]:idx4, f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:idx4, f64[2,3]) #dup | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:idx4, f64[2,3], reduce='add') #dup | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:neg4, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm4, 2.0, reduce='multiply') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm4, 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward1
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm4, f64[2,3], reduce='add') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm4, f64[2,3], reduce='multiply') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm4, f64[3,5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm4, value=1.0) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward1
Tensor.scatter_ | Tensor.scatter_(f64[2,4], 1, i64[2,3]:perm5, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter_ | Tensor.scatter_(f64[], 0, i64[]:idx1, f64[]) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
Tensor.scatter_add | Tensor.scatter_add(f32[2,4], 1, i64[2,3]:perm4, f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], -1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 0, i64[1,4]:idx2, f64[1,4]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 1, i32[2,3]:perm4, f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: scatter(): Expected dtype int64 for index, got int32
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 1, i64[0,3]:idx4, f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 1, i64[2,3]:idx4, f64[2,3]) #dup | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 1, i64[2,3]:neg4, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 1, i64[2,3]:perm4, f64[3,5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.scatter_add | Tensor.scatter_add(f64[2,4], 1, i64[2,3]:perm5, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter_add | Tensor.scatter_add(f64[], 0, i64[]:idx1, f64[]) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
Tensor.scatter_add_ | Tensor.scatter_add_(f32[2,4], 1, i64[2,3]:perm4, f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], -1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 0, i64[1,4]:idx2, f64[1,4]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 1, i32[2,3]:perm4, f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: scatter(): Expected dtype int64 for index, got int32
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 1, i64[0,3]:idx4, f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 1, i64[2,3]:idx4, f64[2,3]) #dup | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 1, i64[2,3]:neg4, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 1, i64[2,3]:perm4, f64[3,5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
Tensor.scatter_add_ | Tensor.scatter_add_(f64[2,4], 1, i64[2,3]:perm5, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.scatter_add_ | Tensor.scatter_add_(f64[], 0, i64[]:idx1, f64[]) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
Tensor.sgn | Tensor.sgn(c128[8]:e) | value[0] | value[0]: at 1: symgrad nan, torch -0.0
Tensor.sgn_ | Tensor.sgn_(c128[8]:e) | value[0] | value[0]: at 1: symgrad nan, torch -0.0
Tensor.sign | Tensor.sign(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
Tensor.sign | Tensor.sign(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
Tensor.sign | Tensor.sign(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
Tensor.sign_ | Tensor.sign_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
Tensor.sign_ | Tensor.sign_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
Tensor.sign_ | Tensor.sign_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
Tensor.signbit | Tensor.signbit(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.signbit | Tensor.signbit(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.signbit | Tensor.signbit(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.sinc | Tensor.sinc(c128[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
Tensor.sinc | Tensor.sinc(c128[8]:e) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
Tensor.sinc | Tensor.sinc(c64[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex64
Tensor.sinc_ | Tensor.sinc_(c128[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
Tensor.sinc_ | Tensor.sinc_(c128[8]:e) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
Tensor.sinc_ | Tensor.sinc_(c64[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex64
Tensor.slogdet | Tensor.slogdet(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.slogdet | Tensor.slogdet(f32[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[1,1]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[2,0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[2,3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[3,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[3,3]:e) | grad_fn[0] grad_fn[1] value[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[3,3]:sing) | grad[0] grad_fn[0] grad_fn[1] value[0] value[1] | grad[0]: value at 0: symgrad nan, torch -2.69956263069e+16
Tensor.slogdet | Tensor.slogdet(f64[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.slogdet | Tensor.slogdet(f64[3,3]:tri) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
Tensor.softmax | Tensor.softmax(b8[2,3], 1) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.softmax | Tensor.softmax(f32[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
Tensor.softmax | Tensor.softmax(f64[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
Tensor.softmax | Tensor.softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Int'
Tensor.softmax | Tensor.softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Long'
Tensor.softmax | Tensor.softmax(i64[2,3], 1, dtype=torch.float32) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
Tensor.softmax | Tensor.softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Byte'
Tensor.sort | Tensor.sort(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[16]:e, descending=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[2,3,4], 1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[2,3], -1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[2,3], 1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[2,3], descending=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[2,3], dim=0, stable=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward1
Tensor.sort | Tensor.sort(f64[3,4]:t, 1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
Tensor.sort | Tensor.sort(f64[3,4]:t, stable=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward1
Tensor.sort | Tensor.sort(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch SortBackward0
Tensor.split | Tensor.split(f32[2,3], 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.split | Tensor.split(f64[0,3], 1) | grad_fn[0] | grad_fn[0]: symgrad None, torch SplitBackward0
Tensor.split | Tensor.split(f64[2,3], (1, 1), 0) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitWithSizesBackward0
Tensor.split | Tensor.split(f64[2,3], 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.split | Tensor.split(f64[2,3], 2, -1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.split | Tensor.split(f64[2,3], 2, 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.split | Tensor.split(f64[2,3], 5) | grad_fn[0] | grad_fn[0]: symgrad None, torch SplitBackward0
Tensor.split | Tensor.split(f64[2,3], [1, 2], 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitWithSizesBackward0
Tensor.split | Tensor.split(f64[2,3], [3], 1) | grad_fn[0] | grad_fn[0]: symgrad None, torch SplitWithSizesBackward0
Tensor.split | Tensor.split(f64[7], 3) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
Tensor.square | Tensor.square(c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(c128[8]:e) | grad[0] grad_fn[0] | grad[0]: value at 0: symgrad inf, torch nan
Tensor.square | Tensor.square(c64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square | Tensor.square(f64[]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(c128[8]:e) | grad[0] grad_fn[0] | grad[0]: value at 0: symgrad inf, torch nan
Tensor.square_ | Tensor.square_(c64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.square_ | Tensor.square_(f64[]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
Tensor.squeeze | Tensor.squeeze(f64[1,1], (0, 1)) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch SqueezeBackward2
Tensor.std | Tensor.std(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: std(): std and var only support floating point and complex dtypes, got complex12
Tensor.std | Tensor.std(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.223488137026, torch -inf
Tensor.std | Tensor.std(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.stride | Tensor.stride(f64[0,3]) | value[0] value[1] | value[0]: symgrad 3, torch 0
Tensor.sub | Tensor.sub(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.sub | Tensor.sub(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.sub | Tensor.sub(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.sub | Tensor.sub(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.sub | Tensor.sub(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.sub | Tensor.sub(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
Tensor.sub | Tensor.sub(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.sub | Tensor.sub(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.sub_ | Tensor.sub_(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.sub_ | Tensor.sub_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.sub_ | Tensor.sub_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.sub_ | Tensor.sub_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.sub_ | Tensor.sub_(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.sub_ | Tensor.sub_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.sub_ | Tensor.sub_(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.subtract | Tensor.subtract(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.subtract | Tensor.subtract(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.subtract | Tensor.subtract(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.subtract | Tensor.subtract(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.subtract | Tensor.subtract(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.subtract | Tensor.subtract(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
Tensor.subtract | Tensor.subtract(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.subtract | Tensor.subtract(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.subtract_ | Tensor.subtract_(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.subtract_ | Tensor.subtract_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.subtract_ | Tensor.subtract_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.subtract_ | Tensor.subtract_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch SubBackward0
Tensor.subtract_ | Tensor.subtract_(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.subtract_ | Tensor.subtract_(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
Tensor.subtract_ | Tensor.subtract_(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
Tensor.sum | Tensor.sum(f32[2,3], dtype=torch.int64) | error:missing | error:missing: torch raises RuntimeError: Autograd not support dtype: Long
Tensor.sum | Tensor.sum(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.sum | Tensor.sum(f64[2,3], dim=None) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch SumBackward1
Tensor.take_along_dim | Tensor.take_along_dim(f64[2,3], i32[2,2]:idx3, 1) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.take_along_dim | Tensor.take_along_dim(f64[2,3], i64[2,2]:idx4, 1) | error:extra | error:extra: symgrad raises IndexError: gather: index out of range for dimension 1 of size 3
Tensor.tensor_split | Tensor.tensor_split(f64[0,3], 2) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad None, torch SliceBackward0
Tensor.tensor_split | Tensor.tensor_split(f64[2,3], (0, 3), 1) | grad_fn[1] | grad_fn[1]: symgrad None, torch SliceBackward0
Tensor.to | Tensor.to(f64[2,3], 5) | error:class | error:class: symgrad AssertionError, torch RuntimeError
Tensor.to | Tensor.to(f64[2,3], torch.float64, True) | error:extra | error:extra: symgrad raises TypeError: unsupported dtype True; symgrad has float16, float32, float64, complex64, comple
Tensor.to | Tensor.to(f64[2,3], torch.float64, copy=True) | grad_fn[0] | grad_fn[0]: symgrad CloneBackward0, torch ToCopyBackward0
Tensor.topk | Tensor.topk(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: topk does not support bool dtypes on CPU
Tensor.topk | Tensor.topk(f32[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[0,3], 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[16]:e, 5) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[2,3], 1, 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[2,3], 2, -1, False) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[2,3], 2, largest=False, sorted=False) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[3,4]:t, 2, 1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
Tensor.topk | Tensor.topk(f64[], 1) | grad_fn[0] shape[1] | grad_fn[0]: symgrad ViewBackward0, torch TopkBackward0
Tensor.trace | Tensor.trace(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "trace" not implemented for 'Bool'
Tensor.trace | Tensor.trace(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
Tensor.trace | Tensor.trace(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
Tensor.trace | Tensor.trace(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
Tensor.trace | Tensor.trace(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
Tensor.transpose | Tensor.transpose(f64[], 0, -1) | grad_fn[0] | grad_fn[0]: symgrad None, torch TransposeBackward0
Tensor.true_divide_ | Tensor.true_divide_(c64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.true_divide_ | Tensor.true_divide_(f16[2,3], f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.true_divide_ | Tensor.true_divide_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch DivBackward0
Tensor.trunc | Tensor.trunc(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.trunc | Tensor.trunc(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.trunc | Tensor.trunc(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.trunc_ | Tensor.trunc_(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.trunc_ | Tensor.trunc_(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.trunc_ | Tensor.trunc_(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
Tensor.unbind | Tensor.unbind(f32[2,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
Tensor.unbind | Tensor.unbind(f64[0,3], 1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
Tensor.unbind | Tensor.unbind(f64[2,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
Tensor.unbind | Tensor.unbind(f64[2,3], -1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
Tensor.unbind | Tensor.unbind(f64[2,3], 1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
Tensor.unflatten | Tensor.unflatten(f64[], 0, (1,)) | error:class | error:class: symgrad IndexError, torch RuntimeError
Tensor.var | Tensor.var(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: var(): std and var only support floating point and complex dtypes, got complex12
Tensor.var | Tensor.var(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.6246378342071, torch -inf
Tensor.var | Tensor.var(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
Tensor.vdot | Tensor.vdot(f64[3], 2.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
Tensor.xlogy | Tensor.xlogy(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.xlogy | Tensor.xlogy(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.xlogy | Tensor.xlogy(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.xlogy_ | Tensor.xlogy_(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.xlogy_ | Tensor.xlogy_(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.xlogy_ | Tensor.xlogy_(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
Tensor.xlogy_ | Tensor.xlogy_(f16[2,3], f32[2,3]) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad -3.57457995, torch -3.5731461
Tensor.xlogy_ | Tensor.xlogy_(f32[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ToCopyBackward0, torch XlogyBackward0
Tensor.zero_ | Tensor.zero_(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch ZeroBackward0
Tensor.zero_ | Tensor.zero_(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch ZeroBackward0
Tensor.zero_ | Tensor.zero_(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch ZeroBackward0
Tensor.zero_ | Tensor.zero_(f64[]) | grad_fn[0] | grad_fn[0]: symgrad FillBackward0, torch ZeroBackward0
linalg.cholesky | linalg.cholesky(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.cholesky | linalg.cholesky(f64[3,3]:spd, upper=True) | grad_fn[0] | grad_fn[0]: symgrad TransposeBackward0, torch LinalgCholeskyExBackward0
linalg.cond | linalg.cond(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.cond | linalg.cond(f32[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[0,0]) | error:extra | error:extra: symgrad raises IndexError: index 0 is out of bounds for dimension 0 with size 0
linalg.cond | linalg.cond(f64[1,1]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[2,0,0]) | error:extra | error:extra: symgrad raises IndexError: index 0 is out of bounds for dimension 1 with size 0
linalg.cond | linalg.cond(f64[2,3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3], 'fro') | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
linalg.cond | linalg.cond(f64[3,3], -1) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
linalg.cond | linalg.cond(f64[3,3], -2) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3], 1) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
linalg.cond | linalg.cond(f64[3,3], 2) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3], inf) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
linalg.cond | linalg.cond(f64[3,3]:sing) | grad[0] grad_fn[0] value[0] | grad[0]: value at 2: symgrad -1.063001859849e+29, torch 1.569605815044e+30
linalg.cond | linalg.cond(f64[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cond | linalg.cond(f64[3,3]:tri) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch SqueezeBackward1
linalg.cross | linalg.cross(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.cross | linalg.cross(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected scalar type Float but found Double
linalg.cross | linalg.cross(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected scalar type Long but found Float
linalg.det | linalg.det(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.det | linalg.det(f64[3,3]:sing) | grad[0] | grad[0]: value at 0: symgrad nan, torch 3.231353942695e-17
linalg.diagonal | linalg.diagonal(f32[3,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
linalg.diagonal | linalg.diagonal(f64[2,3,3], dim1=0, dim2=2) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
linalg.diagonal | linalg.diagonal(f64[2,3,3], offset=1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
linalg.diagonal | linalg.diagonal(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
linalg.eigh | linalg.eigh(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.eigh | linalg.eigh(f32[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad UnsqueezeBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[1,1]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[2,0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad UnsqueezeBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[2,3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[3,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[3,3]:e) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[3,3]:sing) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[3,3]:spd, 'U') | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigh | linalg.eigh(f64[3,3]:tri) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.eigvalsh | linalg.eigvalsh(f32[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[0,0]) | grad_fn[0] | grad_fn[0]: symgrad UnsqueezeBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[1,1]) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[2,0,0]) | grad_fn[0] | grad_fn[0]: symgrad UnsqueezeBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[2,3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[3,3]:e) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[3,3]:sing) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[3,3]:spd, UPLO='U') | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.eigvalsh | linalg.eigvalsh(f64[3,3]:tri) | grad_fn[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgEighBackward0
linalg.inv | linalg.inv(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.inv | linalg.inv(f64[3,3]:sing) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
linalg.lstsq | linalg.lstsq(f32[4,2], f32[4,3]) | grad_fn[0] grad_fn[1] requires_grad[1] | grad_fn[0]: symgrad LinalgSolveTriangularBackward0, torch LinalgLstsqBackward0
linalg.lstsq | linalg.lstsq(f64[2,4], f64[2,1]) | grad_fn[0] grad_fn[1] requires_grad[1] | grad_fn[0]: symgrad MmBackward0, torch LinalgLstsqBackward0
linalg.lstsq | linalg.lstsq(f64[3,3], f64[3,4]) | grad_fn[0] grad_fn[1] requires_grad[1] | grad_fn[0]: symgrad LinalgSolveTriangularBackward0, torch LinalgLstsqBackward0
linalg.lstsq | linalg.lstsq(f64[3,3], f64[3]) | grad_fn[0] grad_fn[1] requires_grad[1] | grad_fn[0]: symgrad SqueezeBackward1, torch LinalgLstsqBackward0
linalg.lstsq | linalg.lstsq(f64[3,3]:sing, f64[3,4]) | grad[0] grad[1] grad_fn[0] grad_fn[1] requires_grad[1] value[0] | grad[0]: value at 7: symgrad -1.52436577499e+38, torch -0.1217013623461
linalg.lstsq | linalg.lstsq(f64[4,2], f64[4,3]) | grad_fn[0] grad_fn[1] requires_grad[1] | grad_fn[0]: symgrad LinalgSolveTriangularBackward0, torch LinalgLstsqBackward0
linalg.lstsq | linalg.lstsq(f64[4,2], f64[4,3], None) | grad_fn[0] grad_fn[1] requires_grad[1] | grad_fn[0]: symgrad LinalgSolveTriangularBackward0, torch LinalgLstsqBackward0
linalg.lstsq | linalg.lstsq(f64[4,2], f64[4,3], driver='gelsd') | grad[0] grad_fn[0] grad_fn[1] grad_fn[3] requires_grad[3] | grad[0]: value at 5: symgrad -0.8198503706086, torch 0.02881960148069
linalg.matmul | linalg.matmul(f64[1,2,3], f64[4,3,2]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch CloneBackward0
linalg.matmul | linalg.matmul(f64[2,3], [[1.0], [2.0], [3.0]]) | error:class | error:class: symgrad RuntimeError, torch TypeError
linalg.matrix_norm | linalg.matrix_norm(f64[2,3], -1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch AminBackward0
linalg.matrix_norm | linalg.matrix_norm(f64[2,3], -inf) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch AminBackward0
linalg.matrix_norm | linalg.matrix_norm(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch AmaxBackward0
linalg.matrix_norm | linalg.matrix_norm(f64[2,3], inf) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch AmaxBackward0
linalg.matrix_norm | linalg.matrix_norm(f64[3,3]:sing, 'nuc') | grad[0] | grad[0]: value at 4: symgrad -0.005397437626346, torch -0.9092645789493
linalg.matrix_norm | linalg.matrix_norm(f64[3,3]:t, 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch AmaxBackward0
linalg.matrix_power | linalg.matrix_power(b8[3,3], 2) | error:missing | error:missing: torch raises RuntimeError: "addmm_impl_cpu_" not implemented for 'Bool'
linalg.matrix_power | linalg.matrix_power(f64[3,3], -1) | grad_fn[0] | grad_fn[0]: symgrad CloneBackward0, torch LinalgInvExBackward0
linalg.matrix_power | linalg.matrix_power(f64[3,3]:sing, -1) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
linalg.matrix_power | linalg.matrix_power(i32[3,3], 2) | dtype[0] | dtype[0]: symgrad int64, torch int32
linalg.matrix_power | linalg.matrix_power(u8[3,3], 2) | dtype[0] | dtype[0]: symgrad int64, torch uint8
linalg.matrix_rank | linalg.matrix_rank(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.norm | linalg.norm(f64[2,3,4], 2, (0, 1, 2)) | error:missing | error:missing: torch raises RuntimeError: linalg.norm: If dim is specified, it must be of length 1 or 2. Got [0, 1, 2]
linalg.norm | linalg.norm(f64[2,3], inf, (0, 1)) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch AmaxBackward0
linalg.pinv | linalg.pinv(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.pinv | linalg.pinv(f32[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[0,0]) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[1,1]) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[2,0,0]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[2,3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[3,2]) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[3,3]:sing) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[3,3]:sing, atol=0.1) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[3,3]:spd, hermitian=True) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.pinv | linalg.pinv(f64[3,3]:tri) | grad_fn[0] | grad_fn[0]: symgrad MmBackward0, torch LinalgPinvBackward0
linalg.qr | linalg.qr(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.qr | linalg.qr(f32[3,3]:spd) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[0,0]) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[1,1]) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[2,0,0]) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[2,3,3]:spd) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[2,3]) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[2,3], 'complete') | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[3,2], 'r') | grad:error grad_fn[0] grad_fn[1] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
linalg.qr | linalg.qr(f64[3,3]) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[3,3]:e) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[3,3]:sing) | grad[0] grad_fn[1] | grad[0]: value at 2: symgrad 129.4452409245, torch 4.167406487425
linalg.qr | linalg.qr(f64[3,3]:spd) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[3,3]:tri) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.qr | linalg.qr(f64[4,2]) | grad_fn[1] | grad_fn[1]: symgrad TriuBackward0, torch LinalgQrBackward0
linalg.slogdet | linalg.slogdet(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.slogdet | linalg.slogdet(f32[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[1,1]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[2,0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[2,3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[3,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[3,3]:e) | grad_fn[0] grad_fn[1] value[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[3,3]:sing) | grad[0] grad_fn[0] grad_fn[1] value[0] value[1] | grad[0]: value at 0: symgrad nan, torch -2.69956263069e+16
linalg.slogdet | linalg.slogdet(f64[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.slogdet | linalg.slogdet(f64[3,3]:tri) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
linalg.solve | linalg.solve(f16[3,3]:spd, f16[3,2]) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.solve | linalg.solve(f64[0,0], f64[0]) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch LinalgSolveExBackward0
linalg.solve | linalg.solve(f64[2,3,3]:spd, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch LinalgSolveExBackward0
linalg.solve | linalg.solve(f64[3,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch LinalgSolveExBackward0
linalg.solve | linalg.solve(f64[3,3]:sing, f64[3]) | error:extra | error:extra: symgrad raises RuntimeError: torch.linalg.solve: The solver failed because the input matrix is singular.
linalg.solve_triangular | linalg.solve_triangular(f32[3,3]:tri, f64[3,4], upper=False) | error:extra | error:extra: symgrad raises RuntimeError: linalg.solve_triangular: Expected A and B to have the same dtype, but found A of
linalg.solve_triangular | linalg.solve_triangular(f64[3,3]:tri, f64[4,3], upper=False, left=False) | grad_fn[0] | grad_fn[0]: symgrad TransposeBackward0, torch LinalgSolveTriangularBackward0
linalg.svdvals | linalg.svdvals(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
linalg.svdvals | linalg.svdvals(f32[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[0,0]) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[1,1]) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[2,0,0]) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[2,3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[2,3,4]) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[3,2]) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[3,3]:sing) | grad[0] grad_fn[0] | grad[0]: value at 4: symgrad -0.01582236881365, torch -1.378734656641
linalg.svdvals | linalg.svdvals(f64[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.svdvals | linalg.svdvals(f64[3,3]:tri) | grad_fn[0] | grad_fn[0]: symgrad AbsBackward0, torch LinalgSvdBackward0
linalg.vecdot | linalg.vecdot(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vecdot: Expected a floating point or complex tensor as input. Got Bool
linalg.vecdot | linalg.vecdot(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vecdot: Expected a floating point or complex tensor as input. Got Int
linalg.vecdot | linalg.vecdot(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vecdot: Expected a floating point or complex tensor as input. Got Long
linalg.vecdot | linalg.vecdot(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: linalg.vecdot: Expected a floating point or complex tensor as input. Got Byte
linalg.vector_norm | linalg.vector_norm(f64[2,3], dtype=torch.float32) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: the dtype of the input (Double) should be convertible withou
special.digamma | special.digamma(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.digamma | special.digamma(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.digamma | special.digamma(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.digamma | special.digamma(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.entr | special.entr(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.entr | special.entr(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.entr | special.entr(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.entr | special.entr(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.erf | special.erf(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erf | special.erf(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erf | special.erf(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erf | special.erf(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.erfc | special.erfc(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erfc | special.erfc(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erfc | special.erfc(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erfc | special.erfc(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.erfinv | special.erfinv(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erfinv | special.erfinv(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erfinv | special.erfinv(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.erfinv | special.erfinv(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.exp2 | special.exp2(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.expit | special.expit(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.expm1 | special.expm1(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.gammaln | special.gammaln(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.gammaln | special.gammaln(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.gammaln | special.gammaln(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.gammaln | special.gammaln(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.log1p | special.log1p(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.log_softmax | special.log_softmax(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Bool'
special.log_softmax | special.log_softmax(f32[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
special.log_softmax | special.log_softmax(f64[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
special.log_softmax | special.log_softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Int'
special.log_softmax | special.log_softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Long'
special.log_softmax | special.log_softmax(i64[2,3], 1, dtype=torch.float32) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
special.log_softmax | special.log_softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Byte'
special.logit | special.logit(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
special.logit | special.logit(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
special.logit | special.logit(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexFloat'
special.logit | special.logit(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
special.logit | special.logit(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.logsumexp | special.logsumexp(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
special.multigammaln | special.multigammaln(b8[2,3]:p, 2) | error:missing | error:missing: torch raises RuntimeError: The input tensor may not be a boolean tensor.
special.ndtr | special.ndtr(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.ndtr | special.ndtr(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.ndtr | special.ndtr(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.ndtr | special.ndtr(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.ndtr | special.ndtr(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f64[2,3], out=f64[2,3]~g) | error:extra | error:extra: symgrad raises RuntimeError: functions with out=... arguments don't support automatic differentiation, but on
special.ndtr | special.ndtr(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.ndtr | special.ndtr(f64[]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
special.polygamma | special.polygamma(1.5, f64[2,3]) | error:class | error:class: symgrad RuntimeError, torch TypeError
special.psi | special.psi(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.psi | special.psi(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.psi | special.psi(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.psi | special.psi(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.round | special.round(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
special.round | special.round(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
special.round | special.round(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexFloat'
special.round | special.round(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f32[2,3]~g, out=i64[0]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.round | special.round(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.round | special.round(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f64[2,3]~g, out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.round | special.round(f64[2,3]~g, out=f64[2,3]~g) | error:extra | error:extra: symgrad raises TypeError: round() got an unexpected keyword argument 'out'
special.round | special.round(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(f64[]) | grad_fn[0] | grad_fn[0]: symgrad RoundBackward0, torch RoundBackward1
special.round | special.round(i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'Int'
special.round | special.round(i64[16]:e) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'Long'
special.round | special.round(i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'Long'
special.round | special.round(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.round | special.round(u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'Byte'
special.sinc | special.sinc(c128[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
special.sinc | special.sinc(c128[8]:e) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
special.sinc | special.sinc(c64[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex64
special.sinc | special.sinc(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.softmax | special.softmax(b8[2,3], 1) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.softmax | special.softmax(f32[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
special.softmax | special.softmax(f64[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
special.softmax | special.softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Int'
special.softmax | special.softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Long'
special.softmax | special.softmax(i64[2,3], 1, dtype=torch.float32) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
special.softmax | special.softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Byte'
special.xlog1py | special.xlog1py(2.5, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SpecialXlog1PyBackward0, torch SpecialXlog1PyBackward1
special.xlog1py | special.xlog1py(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.xlog1py | special.xlog1py(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.xlog1py | special.xlog1py(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.xlog1py | special.xlog1py(f32[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad SpecialXlog1PyBackward0, torch SpecialXlog1PyBackward2
special.xlog1py | special.xlog1py(f32[2,3], 2.5) | grad_fn[0] | grad_fn[0]: symgrad SpecialXlog1PyBackward0, torch SpecialXlog1PyBackward2
special.xlog1py | special.xlog1py(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.xlog1py | special.xlog1py(f64[16]:e, -0.0) | grad_fn[0] | grad_fn[0]: symgrad SpecialXlog1PyBackward0, torch SpecialXlog1PyBackward2
special.xlog1py | special.xlog1py(f64[16]:e, 0.0) | grad_fn[0] | grad_fn[0]: symgrad SpecialXlog1PyBackward0, torch SpecialXlog1PyBackward2
special.xlog1py | special.xlog1py(f64[2,3], inf) | grad_fn[0] | grad_fn[0]: symgrad SpecialXlog1PyBackward0, torch SpecialXlog1PyBackward2
special.xlog1py | special.xlog1py(f64[2,3], nan) | grad_fn[0] | grad_fn[0]: symgrad SpecialXlog1PyBackward0, torch SpecialXlog1PyBackward2
special.xlogy | special.xlogy(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.xlogy | special.xlogy(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.xlogy | special.xlogy(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.xlogy | special.xlogy(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.zeta | special.zeta(2.5, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward1
special.zeta | special.zeta(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "zeta_cpu" not implemented for 'Half'
special.zeta | special.zeta(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.zeta | special.zeta(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.zeta | special.zeta(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
special.zeta | special.zeta(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises RuntimeError: "zeta_cpu" not implemented for 'Half'
special.zeta | special.zeta(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: "zeta_cpu" not implemented for 'Half'
special.zeta | special.zeta(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "zeta_cpu" not implemented for 'Half'
special.zeta | special.zeta(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -15.6373892, torch -15.6468086
special.zeta | special.zeta(f32[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward2
special.zeta | special.zeta(f32[2,3], 2.5) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward2
special.zeta | special.zeta(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
special.zeta | special.zeta(f64[16]:e, -0.0) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward2
special.zeta | special.zeta(f64[16]:e, 0.0) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward2
special.zeta | special.zeta(f64[2,3], inf) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward2
special.zeta | special.zeta(f64[2,3], nan) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward2
special.zeta | special.zeta(f64[6]:u, 1.0) | grad_fn[0] | grad_fn[0]: symgrad SpecialZetaBackward0, torch SpecialZetaBackward2
special.zeta | special.zeta(i64[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "zeta_cpu" not implemented for 'Half'
torch.ByteTensor | torch.ByteTensor([1.5, -2.0, 3.0]) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8 without overflow
torch.ByteTensor | torch.ByteTensor([300.0]) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8 without overflow
torch.CharTensor | torch.CharTensor([300.0]) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type int8 without overflow
torch.abs | torch.abs(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
torch.abs | torch.abs(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.abs | torch.abs(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.abs | torch.abs(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.absolute | torch.absolute(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "abs_cpu" not implemented for 'Bool'
torch.absolute | torch.absolute(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.absolute | torch.absolute(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.absolute | torch.absolute(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.acos | torch.acos(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.acosh | torch.acosh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.add | torch.add(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.add | torch.add(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
torch.add | torch.add(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.addbmm | torch.addbmm(f16[3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 6: symgrad 0.55371, torch 0.55273
torch.addbmm | torch.addbmm(f32[3,4], f64[2,3,3], f64[2,3,4]) | error:missing | error:missing: torch raises RuntimeError: self and mat2 must have the same dtype, but got Float and Double
torch.addbmm | torch.addbmm(i32[3,4], i32[2,3,3], i32[2,3,4]) | dtype[0] | dtype[0]: symgrad int64, torch int32
torch.addbmm | torch.addbmm(i64[3,4], i64[2,3,3], i64[2,3,4], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.addbmm | torch.addbmm(u8[3,4], u8[2,3,3], u8[2,3,4]) | dtype[0] | dtype[0]: symgrad int64, torch uint8
torch.addcdiv | torch.addcdiv(b8[2,3]:n, b8[2,3]:n, b8[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
torch.addcdiv | torch.addcdiv(i32[2,3]:n, i32[2,3]:n, i32[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
torch.addcdiv | torch.addcdiv(i64[2,3], i64[2,3], i64[2,3], value=0.5) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
torch.addcdiv | torch.addcdiv(i64[2,3], i64[2,3], i64[2,3], value=2) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
torch.addcdiv | torch.addcdiv(i64[2,3]:n, i64[2,3]:n, i64[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
torch.addcdiv | torch.addcdiv(u8[2,3]:n, u8[2,3]:n, u8[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release a
torch.addcmul | torch.addcmul(b8[2,3]:n, b8[2,3]:n, b8[2,3]:n) | error:missing | error:missing: torch raises RuntimeError: "addcmul_cpu_out" not implemented for 'Bool'
torch.addcmul | torch.addcmul(f16[2,3]:n, f16[2,3]:n, f16[2,3]:n) | value[0] | value[0]: at 1: symgrad -0.16357, torch -0.16321
torch.addcmul | torch.addcmul(i64[2,3], i64[2,3], i64[2,3], value=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.addmm | torch.addmm(f32[2,4], f64[2,3], f64[3,4]) | error:missing | error:missing: torch raises RuntimeError: self and mat2 must have the same dtype, but got Float and Double
torch.addmm | torch.addmm(i64[2,4], i64[2,3], i64[3,4], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.addmv | torch.addmv(f32[2], f64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: addmv input tensors must have the same dtype, but got Float, Double, and Double
torch.addmv | torch.addmv(i64[2], i64[2,3], i64[3], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.all | torch.all(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.all | torch.all(f64[2,3], 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: all only supports bool tensor for result, got: Double
torch.all | torch.all(f64[2,3]~g, 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: all only supports bool tensor for result, got: Double
torch.all | torch.all(u8[2,3]) | dtype[0] | dtype[0]: symgrad bool, torch uint8
torch.all | torch.all(u8[2,3], -1) | dtype[0] | dtype[0]: symgrad bool, torch uint8
torch.allclose | torch.allclose(b8[2,3], b8[2,3]) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
torch.allclose | torch.allclose(b8[2,3]@2, b8[2,3]@2) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
torch.allclose | torch.allclose(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Float did not match Double
torch.allclose | torch.allclose(f64[2,3], f64[2,3], rtol=-1.0) | error:missing | error:missing: torch raises RuntimeError: rtol must be greater than or equal to zero, but got -1
torch.allclose | torch.allclose(i64[2,3]@1, f64[2,3]@1) | error:missing | error:missing: torch raises RuntimeError: Long did not match Double
torch.amax | torch.amax(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "max_values_cpu" not implemented for 'ComplexDouble'
torch.amax | torch.amax(f64[0,3], (0,)) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.amax | torch.amax(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.amax | torch.amax(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.amin | torch.amin(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "min_values_cpu" not implemented for 'ComplexDouble'
torch.amin | torch.amin(f64[0,3], (0,)) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.amin | torch.amin(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.amin | torch.amin(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.aminmax | torch.aminmax(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "aminmax_cpu" not implemented for 'ComplexDouble'
torch.angle | torch.angle(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.any | torch.any(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.any | torch.any(f64[2,3], 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: any only supports bool tensor for result, got: Double
torch.any | torch.any(f64[2,3]~g, 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: any only supports bool tensor for result, got: Double
torch.any | torch.any(u8[2,3]) | dtype[0] | dtype[0]: symgrad bool, torch uint8
torch.any | torch.any(u8[2,3], -1) | dtype[0] | dtype[0]: symgrad bool, torch uint8
torch.arange | torch.arange(0, 1, 0.3, dtype=torch.int64) | error:missing | error:missing: torch raises ValueError: step must be nonzero
torch.arange | torch.arange(5, 0) | error:missing | error:missing: torch raises RuntimeError: upper bound and lower bound inconsistent with step sign
torch.arange | torch.arange(inf) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.arccos | torch.arccos(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.arccosh | torch.arccosh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.arcsin | torch.arcsin(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.arcsinh | torch.arcsinh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.arctan | torch.arctan(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.arctan2 | torch.arctan2(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.arctan2 | torch.arctan2(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.arctan2 | torch.arctan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
torch.arctan2 | torch.arctan2(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.arctanh | torch.arctanh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.argmax | torch.argmax(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmax(): does not support bool input
torch.argmax | torch.argmax(b8[2,3], 0) | error:missing | error:missing: torch raises RuntimeError: argmax(): does not support bool input
torch.argmax | torch.argmax(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmax(): does not support complex input
torch.argmax | torch.argmax(f64[0,3]) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.argmax | torch.argmax(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.argmax | torch.argmax(f64[0]) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.argmax | torch.argmax(f64[2,3], 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: Expected out tensor to have dtype long int, but got double instead
torch.argmax | torch.argmax(f64[2,3]~g, 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: Expected out tensor to have dtype long int, but got double instead
torch.argmin | torch.argmin(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmin(): does not support bool input
torch.argmin | torch.argmin(b8[2,3], 0) | error:missing | error:missing: torch raises RuntimeError: argmin(): does not support bool input
torch.argmin | torch.argmin(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: argmin(): does not support complex input
torch.argmin | torch.argmin(f64[0,3]) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.argmin | torch.argmin(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.argmin | torch.argmin(f64[0]) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.argmin | torch.argmin(f64[2,3], 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: Expected out tensor to have dtype long int, but got double instead
torch.argmin | torch.argmin(f64[2,3]~g, 1, out=f64[2]~g) | error:missing | error:missing: torch raises RuntimeError: Expected out tensor to have dtype long int, but got double instead
torch.as_tensor | torch.as_tensor(300, dtype=torch.uint8) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8 without overflow
torch.as_tensor | torch.as_tensor(9223372036854775808) | error:class | error:class: symgrad TypeError, torch ValueError
torch.as_tensor | torch.as_tensor([1.0, 2.5, -3.0], dtype=torch.uint8) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8 without overflow
torch.as_tensor | torch.as_tensor([f64[2], f64[2]]) | error:missing | error:missing: torch raises ValueError: only one element tensors can be converted to Python scalars
torch.as_tensor | torch.as_tensor([f64[], 2.0]) | dtype[0] | dtype[0]: symgrad float32, torch float64
torch.as_tensor | torch.as_tensor([f64[], f64[]]) | dtype[0] | dtype[0]: symgrad float32, torch float64
torch.asin | torch.asin(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.asinh | torch.asinh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.atan | torch.atan(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.atan2 | torch.atan2(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.atan2 | torch.atan2(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.atan2 | torch.atan2(f16[2,3], f32[2,3]) | grad[0] | grad[0]: value at 1: symgrad -1.44688332, torch -1.44717598
torch.atan2 | torch.atan2(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.atanh | torch.atanh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.baddbmm | torch.baddbmm(f16[2,3,4], f16[2,3,3], f16[2,3,4]) | value[0] | value[0]: at 2: symgrad 0.45605, torch 0.45654
torch.baddbmm | torch.baddbmm(f32[2,3,4], f64[2,3,3], f64[2,3,4]) | error:missing | error:missing: torch raises RuntimeError: Input dtypes must be the same, got: input float, batch1: double, batch2: double
torch.baddbmm | torch.baddbmm(i64[2,3,4], i64[2,3,3], i64[2,3,4], alpha=0.5) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.bernoulli | torch.bernoulli(f64[3,4]:01, 0.3) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
torch.bernoulli | torch.bernoulli(f64[3,4]:01, p=0.7) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
torch.bincount | torch.bincount(i64[6]:idx4, f32[6]) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
torch.bincount | torch.bincount(i64[6]:idx4, f64[6]) | grad:error grad_fn[0] requires_grad[0] | grad:error: symgrad no error, torch RuntimeError
torch.broadcast_to | torch.broadcast_to(f64[2,3], (-1, 3)) | grad_fn[0] | grad_fn[0]: symgrad None, torch ExpandBackward0
torch.broadcast_to | torch.broadcast_to(f64[], ()) | grad_fn[0] | grad_fn[0]: symgrad None, torch ExpandBackward0
torch.bucketize | torch.bucketize(b8[2,3], b8[5]:sorted) | error:missing | error:missing: torch raises RuntimeError: "searchsorted_out_cpu" not implemented for 'Bool'
torch.bucketize | torch.bucketize(f64[2,3], f64[5]:sorted, out_int32=True) | dtype[0] | dtype[0]: symgrad int64, torch int32
torch.cartesian_prod | torch.cartesian_prod(i64[2], f64[2]) | error:missing | error:missing: torch raises RuntimeError: meshgrid expects all tensors to have the same dtype
torch.cat | torch.cat([]) | error:class | error:class: symgrad RuntimeError, torch ValueError
torch.cat | torch.cat([f64[0], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.cat | torch.cat([f64[2,3], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.cat | torch.cat([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CatBackward0
torch.cdist | torch.cdist(f16[2,3], f16[4,3]) | error:missing | error:missing: torch raises RuntimeError: "cdist" not implemented for 'Half'
torch.cdist | torch.cdist(f32[2,3], f64[4,3]) | error:missing | error:missing: torch raises RuntimeError: expected scalar type Float but found Double
torch.cdist | torch.cdist(f64[2,3], f64[4,3], 0.0) | grad[0] grad[1] | grad[0]: symgrad none, torch a gradient
torch.ceil | torch.ceil(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
torch.ceil | torch.ceil(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
torch.ceil | torch.ceil(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: ceil is not supported for complex inputs
torch.ceil | torch.ceil(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.ceil | torch.ceil(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.ceil | torch.ceil(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.cholesky | torch.cholesky(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.cholesky | torch.cholesky(f32[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
torch.cholesky | torch.cholesky(f64[0,0]) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
torch.cholesky | torch.cholesky(f64[2,0,0]) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
torch.cholesky | torch.cholesky(f64[2,3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
torch.cholesky | torch.cholesky(f64[3,3]:spd) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
torch.cholesky | torch.cholesky(f64[3,3]:spd, False) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
torch.cholesky | torch.cholesky(f64[3,3]:spd, True) | grad_fn[0] | grad_fn[0]: symgrad TransposeBackward0, torch CholeskyBackward0
torch.cholesky | torch.cholesky(f64[3,3]:tri) | grad_fn[0] | grad_fn[0]: symgrad LinalgCholeskyExBackward0, torch CholeskyBackward0
torch.cholesky_inverse | torch.cholesky_inverse(f16[3,3]:spd) | error:missing | error:missing: torch raises RuntimeError: "cholesky_inverse_out_cpu" not implemented for 'Half'
torch.cholesky_inverse | torch.cholesky_inverse(f64[3,3]:e) | value[0] | value[0]: at 4: symgrad nan, torch 0.0
torch.chunk | torch.chunk(f32[2,3], 2) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.chunk | torch.chunk(f64[0,3], 2) | structure | structure: symgrad (T), torch (T,T)
torch.chunk | torch.chunk(f64[0,3], 2, 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.chunk | torch.chunk(f64[2,3], 2) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.chunk | torch.chunk(f64[2,3], 2, 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.chunk | torch.chunk(f64[2,3], 3, -1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.chunk | torch.chunk(f64[2,3], 4, 1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.chunk | torch.chunk(f64[7], 3) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.clamp | torch.clamp(f32[2,3]~g, -0.5, 0.5, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.clamp | torch.clamp(f64[2,3]) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.clamp | torch.clamp(f64[2,3]~g, -0.5, 0.5, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.clamp_max | torch.clamp_max(f32[2,3]~g, 0.0, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.clamp_max | torch.clamp_max(f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMaxBackward1
torch.clamp_max | torch.clamp_max(f64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMaxBackward1
torch.clamp_max | torch.clamp_max(f64[2,3]~g, 0.0, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.clamp_min | torch.clamp_min(f32[2,3]~g, 0.0, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.clamp_min | torch.clamp_min(f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMinBackward1
torch.clamp_min | torch.clamp_min(f64[2,3], f64[3]) | grad_fn[0] | grad_fn[0]: symgrad ClampBackward0, torch ClampMinBackward1
torch.clamp_min | torch.clamp_min(f64[2,3]~g, 0.0, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.clip | torch.clip(f32[2,3]~g, -0.5, 0.5, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.clip | torch.clip(f64[2,3]) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.clip | torch.clip(f64[2,3]~g, -0.5, 0.5, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.column_stack | torch.column_stack([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CatBackward0
torch.complex | torch.complex(2.5, f64[2,3]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(3, i64[2,3]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(c128[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises unreadable result: TypeError
torch.complex | torch.complex(f16[2,3], 100000.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises unreadable result: TypeError
torch.complex | torch.complex(f32[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Expected object of scalar type ComplexFloat but got scalar type Long for argumen
torch.complex | torch.complex(f64[16]:e, -0.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f64[16]:e, 0.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f64[2,3], [1.0, 2.0, 3.0]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f64[2,3], inf) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f64[2,3], nan) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(f64[2,3]~g, f64[3]~g, out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Expected object of scalar type ComplexDouble but got scalar type Double for argu
torch.complex | torch.complex(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(i64[2,3], 3) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(i64[2,3], True) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.complex | torch.complex(u8[2,3], -1) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.concat | torch.concat([]) | error:class | error:class: symgrad RuntimeError, torch ValueError
torch.concat | torch.concat([f64[0], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.concat | torch.concat([f64[2,3], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.concat | torch.concat([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CatBackward0
torch.concatenate | torch.concatenate([]) | error:class | error:class: symgrad RuntimeError, torch ValueError
torch.concatenate | torch.concatenate([f64[0], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.concatenate | torch.concatenate([f64[2,3], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.concatenate | torch.concatenate([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CatBackward0
torch.conj | torch.conj(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.conj_physical | torch.conj_physical(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.conj_physical | torch.conj_physical(f64[2,3], out=f64[2,3]~g) | error:extra | error:extra: symgrad raises RuntimeError: functions with out=... arguments don't support automatic differentiation, but on
torch.conj_physical | torch.conj_physical(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.conj_physical | torch.conj_physical(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.copysign | torch.copysign(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.copysign | torch.copysign(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.copysign | torch.copysign(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.copysign | torch.copysign(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.corrcoef | torch.corrcoef(b8[2,5]) | error:missing | error:missing: torch raises RuntimeError: cov(): bool dtype is not supported for input
torch.cos | torch.cos(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.cosh | torch.cosh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.count_nonzero | torch.count_nonzero(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.cov | torch.cov(b8[2,5]) | error:missing | error:missing: torch raises RuntimeError: cov(): bool dtype is not supported for input
torch.cross | torch.cross(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.cross | torch.cross(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected scalar type Float but found Double
torch.cross | torch.cross(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: expected scalar type Long but found Float
torch.cumprod | torch.cumprod(f64[16]:e, 0) | grad[0] | grad[0]: value at 10: symgrad -inf, torch nan
torch.cumulative_trapezoid | torch.cumulative_trapezoid(b8[2,5]) | error:missing | error:missing: torch raises RuntimeError: cumulative_trapezoid: received a bool input for `y`, but bool is not supported
torch.cumulative_trapezoid | torch.cumulative_trapezoid(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CumsumBackward0
torch.cumulative_trapezoid | torch.cumulative_trapezoid(f64[2,3], 2.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.cumulative_trapezoid | torch.cumulative_trapezoid(f64[2,3], f64[2,3]:sorted) | grad_fn[0] | grad_fn[0]: symgrad CumsumBackward0, torch DivBackward1
torch.cumulative_trapezoid | torch.cumulative_trapezoid(f64[2,3], f64[3]:sorted) | grad_fn[0] | grad_fn[0]: symgrad CumsumBackward0, torch DivBackward1
torch.cumulative_trapezoid | torch.cumulative_trapezoid(f64[2,3], x=f64[3], dim=-1) | grad_fn[0] | grad_fn[0]: symgrad CumsumBackward0, torch DivBackward1
torch.deg2rad | torch.deg2rad(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
torch.deg2rad | torch.deg2rad(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
torch.deg2rad | torch.deg2rad(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: deg2rad is not supported for complex tensors.
torch.deg2rad | torch.deg2rad(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.det | torch.det(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.det | torch.det(f64[3,3]:sing) | grad[0] | grad[0]: value at 0: symgrad nan, torch 3.231353942695e-17
torch.diag | torch.diag(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0_copy
torch.diag | torch.diag(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch DiagonalBackward0_copy
torch.diag | torch.diag(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag | torch.diag(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0_copy
torch.diag | torch.diag(f64[3,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0_copy
torch.diag | torch.diag(f64[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag | torch.diag(f64[3], -2) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag | torch.diag(f64[3], 1) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag_embed | torch.diag_embed(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag_embed | torch.diag_embed(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag_embed | torch.diag_embed(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag_embed | torch.diag_embed(f64[2,3], -1, 0, 2) | error:extra | error:extra: symgrad raises RuntimeError: diag_embed: only dim1=-2, dim2=-1 are supported yet
torch.diag_embed | torch.diag_embed(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diag_embed | torch.diag_embed(f64[3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch DiagEmbedBackward0
torch.diagonal | torch.diagonal(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[2,3,4], 0, -1, 0) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[2,3,4], 0, 1, 2) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[2,3,4], dim1=2, dim2=0, offset=1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[2,3], 5) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[3,3], -1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
torch.diagonal | torch.diagonal(f64[3,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch DiagonalBackward0
torch.diff | torch.diff(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad None, torch CopyBackwards
torch.digamma | torch.digamma(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.digamma | torch.digamma(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.digamma | torch.digamma(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.digamma | torch.digamma(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.dist | torch.dist(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.dist | torch.dist(f64[2,3], f64[3], 0) | grad:error | grad:error: symgrad no error, torch RuntimeError
torch.div | torch.div(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.div | torch.div(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.div | torch.div(f64[2,3], f64[2,3]:t, rounding_mode=None) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward2
torch.divide | torch.divide(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.divide | torch.divide(f64[2,3], f64[2,3]:t, rounding_mode='bad') | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.divide | torch.divide(f64[2,3], f64[2,3]:t, rounding_mode=None) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward2
torch.dot | torch.dot(f64[3], 2.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.dropout | torch.dropout(f64[3,4], -0.1) | error:class | error:class: symgrad ValueError, torch TypeError
torch.dropout | torch.dropout(f64[3,4], 0.5, True, True) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.dropout | torch.dropout(f64[3,4], 1.5) | error:class | error:class: symgrad ValueError, torch TypeError
torch.dstack | torch.dstack([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad UnsqueezeBackward0, torch CatBackward0
torch.einsum | torch.einsum('', f64[]) | grad_fn[0] | grad_fn[0]: symgrad None, torch PermuteBackward0
torch.einsum | torch.einsum('i,j->ij', f64[3], f64[4]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MulBackward0
torch.einsum | torch.einsum('ii->i', f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad SliceBackward0, torch PermuteBackward0
torch.einsum | torch.einsum('ij,ij->ij', f64[2,3], f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MulBackward0
torch.empty | torch.empty((2, -1)) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.empty | torch.empty((2, 3), out=f64[2,3]~g) | dtype[0] identity | dtype[0]: symgrad float32, torch float64
torch.empty | torch.empty(-1) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.eq | torch.eq(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.erf | torch.erf(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erf | torch.erf(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erf | torch.erf(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erf | torch.erf(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.erfc | torch.erfc(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erfc | torch.erfc(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erfc | torch.erfc(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erfc | torch.erfc(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.erfinv | torch.erfinv(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erfinv | torch.erfinv(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erfinv | torch.erfinv(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.erfinv | torch.erfinv(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.exp | torch.exp(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.exp2 | torch.exp2(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.expm1 | torch.expm1(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.eye | torch.eye(-1) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.fix | torch.fix(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
torch.fix | torch.fix(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
torch.fix | torch.fix(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
torch.fix | torch.fix(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.fix | torch.fix(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.fix | torch.fix(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.flatten | torch.flatten(f64[2,3,4], 2, 1) | error:missing | error:missing: torch raises RuntimeError: flatten() has invalid args: start_dim cannot come after end_dim
torch.flip | torch.flip(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.flip | torch.flip(f64[], (0,)) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
torch.fliplr | torch.fliplr(f64[3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.fliplr | torch.fliplr(f64[]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.flipud | torch.flipud(f64[]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.float_power | torch.float_power(c128[2,3], 2.5) | dtype[0] grad[0] value[0] | dtype[0]: symgrad float64, torch complex128
torch.float_power | torch.float_power(c128[2,3], c128[2,3]) | dtype[0] grad[0] grad[1] value[0] | dtype[0]: symgrad float64, torch complex128
torch.float_power | torch.float_power(c64[2,3], f64[3]) | dtype[0] grad[0] grad[1] value[0] | dtype[0]: symgrad float64, torch complex128
torch.float_power | torch.float_power(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: the output given to float_power has dtype Long but the operation's result requir
torch.float_power | torch.float_power(i64[2,3], i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: the output given to float_power has dtype Float but the operation's result requi
torch.floor | torch.floor(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
torch.floor | torch.floor(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
torch.floor | torch.floor(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: floor is not supported for complex inputs
torch.floor | torch.floor(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.floor | torch.floor(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.floor | torch.floor(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.floor_divide | torch.floor_divide(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "div_floor_cpu" not implemented for 'Bool'
torch.floor_divide | torch.floor_divide(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.floor_divide | torch.floor_divide(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.floor_divide | torch.floor_divide(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.floor_divide | torch.floor_divide(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.floor_divide | torch.floor_divide(f64[2,3], f64[3], out=f64[2,3]~g) | error:extra | error:extra: symgrad raises RuntimeError: functions with out=... arguments don't support automatic differentiation, but on
torch.fmax | torch.fmax(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: fmax not implemented for complex tensors.
torch.fmax | torch.fmax(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: fmax not implemented for complex tensors.
torch.fmax | torch.fmax(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.fmax | torch.fmax(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
torch.fmin | torch.fmin(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: fmin not implemented for complex tensors.
torch.fmin | torch.fmin(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: fmin not implemented for complex tensors.
torch.fmin | torch.fmin(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.fmin | torch.fmin(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
torch.fmod | torch.fmod(3, i64[2,3]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.fmod | torch.fmod(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "fmod_cpu" not implemented for 'Bool'
torch.fmod | torch.fmod(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.fmod | torch.fmod(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.fmod | torch.fmod(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.fmod | torch.fmod(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.fmod | torch.fmod(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.frac | torch.frac(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.frac | torch.frac(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.frac | torch.frac(i32[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(i64[16]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(i64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.frac | torch.frac(u8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.full | torch.full((2, -1), 0.5) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.full | torch.full((2,), 300, dtype=torch.uint8) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8_t without overflow
torch.gather | torch.gather(f64[2,3], 1, f64[2,2]:idx3) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.gather | torch.gather(f64[2,3], 1, i32[2,2]:idx3) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
torch.gather | torch.gather(f64[2,3], 1, i64[2,2]:idx4) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.gather | torch.gather(f64[2,3], 1, i64[2,2]:neg3) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.gather | torch.gather(f64[], 0, i64[]:idx1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch GatherBackward0
torch.ge | torch.ge(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.ger | torch.ger(f64[3], 2.0) | error:class | error:class: symgrad AttributeError, torch TypeError
torch.greater | torch.greater(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.greater_equal | torch.greater_equal(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.gt | torch.gt(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.heaviside | torch.heaviside(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for complex tensors.
torch.heaviside | torch.heaviside(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for complex tensors.
torch.heaviside | torch.heaviside(f16[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(f32[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(f64[2,3], f64[3], out=f64[2,3]~g) | error:extra | error:extra: symgrad raises RuntimeError: functions with out=... arguments don't support automatic differentiation, but on
torch.heaviside | torch.heaviside(f64[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(f64[], i32[3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(i32[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(i64[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(i64[2,3], f32[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(i64[2,3], i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(i64[3], f64[]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.heaviside | torch.heaviside(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: heaviside is not yet implemented for tensors with different dtypes.
torch.hstack | torch.hstack([f64[0], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.hstack | torch.hstack([f64[2,3], f64[0]]) | grad[1] grad_fn[0] | grad[1]: symgrad none, torch a gradient
torch.hstack | torch.hstack([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CatBackward0
torch.hypot | torch.hypot(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Bool'
torch.hypot | torch.hypot(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
torch.hypot | torch.hypot(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.hypot | torch.hypot(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.hypot | torch.hypot(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.hypot | torch.hypot(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Int'
torch.hypot | torch.hypot(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
torch.hypot | torch.hypot(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
torch.hypot | torch.hypot(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
torch.hypot | torch.hypot(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
torch.hypot | torch.hypot(i64[2,3], i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
torch.hypot | torch.hypot(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Byte'
torch.hypot | torch.hypot(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Byte'
torch.hypot | torch.hypot(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Long'
torch.hypot | torch.hypot(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "hypot_cpu" not implemented for 'Byte'
torch.imag | torch.imag(2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.imag | torch.imag([1.0, -2.0]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.imag | torch.imag(f32[2,3]~g, out=i64[0]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.imag | torch.imag(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.imag | torch.imag(f64[2,3]~g, out=f32[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.imag | torch.imag(f64[2,3]~g, out=f64[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.imag | torch.imag(i64[2,3], out=f32[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.index_add | torch.index_add(f32[2,3], 1, i64[2]:perm3, f32[2,2]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
torch.index_add | torch.index_add(f64[2,3], -1, i64[2]:neg3, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.index_add | torch.index_add(f64[2,3], 0, i64[2]:perm2, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
torch.index_add | torch.index_add(f64[2,3], 1, f64[2]:idx3, f64[2,2]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.index_add | torch.index_add(f64[2,3], 1, i32[2]:perm3, f64[2,2]) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
torch.index_add | torch.index_add(f64[2,3], 1, i64[0]:idx3, f64[2,0]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
torch.index_add | torch.index_add(f64[2,3], 1, i64[2,2]:idx3, f64[2,2]) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.index_add | torch.index_add(f64[2,3], 1, i64[2]:idx4, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.index_add | torch.index_add(f64[2,3], 1, i64[2]:perm3, f64[2,2]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
torch.index_add | torch.index_add(f64[2,3], 1, i64[2]:perm3, f64[2,2], alpha=2) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
torch.index_add | torch.index_add(f64[2,3], 1, i64[4]:idx3, f64[2,4]) #dup | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch IndexAddBackward0
torch.index_add | torch.index_add(f64[], 0, i64[1]:idx1, f64[1]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.index_copy | torch.index_copy(f64[2,3], -1, i64[2]:neg3, f64[2,2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): index -1 is out of bounds for dimension 1 with size 3
torch.index_copy | torch.index_copy(f64[2,3], 1, f64[2]:idx3, f64[2,2]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.index_copy | torch.index_copy(f64[2,3], 1, i32[2]:perm3, f64[2,2]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.index_copy | torch.index_copy(f64[2,3], 1, i64[2,2]:idx3, f64[2,2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): Index should have dimension 1 or 0 (got 2)
torch.index_copy | torch.index_copy(f64[2,3], 1, i64[]:idx3, f64[2]) | error:missing | error:missing: torch raises IndexError: index_copy_(): When source and destination are not scalars, their dimensionality
torch.index_copy | torch.index_copy(f64[], 0, i64[1]:idx1, f64[1]) | error:extra | error:extra: symgrad raises IndexError: too many indices for tensor of dimension 0
torch.index_fill | torch.index_fill(f32[2,3], 1, i64[2]:perm3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
torch.index_fill | torch.index_fill(f64[2,3], -1, i64[2]:neg3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
torch.index_fill | torch.index_fill(f64[2,3], 0, i64[2]:perm2, -1.0) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
torch.index_fill | torch.index_fill(f64[2,3], 1, f64[2]:idx3, 1.5) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.index_fill | torch.index_fill(f64[2,3], 1, i32[2]:perm3, 1.5) | error:missing | error:missing: torch raises IndexError: index_fill_(): Expected dtype int64 for index.
torch.index_fill | torch.index_fill(f64[2,3], 1, i64[0]:idx3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
torch.index_fill | torch.index_fill(f64[2,3], 1, i64[2,2]:idx3, 1.5) | error:missing | error:missing: torch raises RuntimeError: Index has to be a vector/scalar
torch.index_fill | torch.index_fill(f64[2,3], 1, i64[2]:perm3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
torch.index_fill | torch.index_fill(f64[2,3], 1, i64[2]:perm3, f64[]) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward1, torch IndexFillBackward1
torch.index_fill | torch.index_fill(f64[2,3], 1, i64[]:idx3, 1.5) | grad_fn[0] | grad_fn[0]: symgrad MaskedFillBackward0, torch IndexFillBackward0
torch.index_fill | torch.index_fill(f64[], 0, i64[1]:idx1, 1.5) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
torch.index_put | torch.index_put(f64[2,3], (i32[2]:perm2,), f64[3]) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
torch.index_put | torch.index_put(f64[2,3], (i64[2]:perm2, i64[2]:perm3), 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.index_select | torch.index_select(f32[2,3], 1, i64[2]:perm3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
torch.index_select | torch.index_select(f64[2,3], -1, i64[2]:neg3) | error:missing | error:missing: torch raises RuntimeError: INDICES element is out of DATA bounds, id=-1 axis_dim=3
torch.index_select | torch.index_select(f64[2,3], 0, i64[2]:perm2) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
torch.index_select | torch.index_select(f64[2,3], 1, f64[2]:idx3) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.index_select | torch.index_select(f64[2,3], 1, i32[2]:perm3) | error:extra | error:extra: symgrad raises TypeError: index tensor must be int64, got int32
torch.index_select | torch.index_select(f64[2,3], 1, i64[0]:idx3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
torch.index_select | torch.index_select(f64[2,3], 1, i64[2]:idx4) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.index_select | torch.index_select(f64[2,3], 1, i64[2]:perm3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
torch.index_select | torch.index_select(f64[2,3], 1, i64[]:idx3) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch IndexSelectBackward0
torch.index_select | torch.index_select(f64[], 0, i64[1]:idx1) | error:extra | error:extra: symgrad raises IndexError: too many indices for tensor of dimension 0
torch.inner | torch.inner(f64[0], f64[0]) | error:extra | error:extra: symgrad raises RuntimeError: shape '[-1, 0]' is invalid for input of size 0
torch.inverse | torch.inverse(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.inverse | torch.inverse(f64[3,3]:sing) | error:extra | error:extra: symgrad raises RuntimeError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed
torch.isclose | torch.isclose(b8[2,3], b8[2,3]) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
torch.isclose | torch.isclose(b8[2,3]@2, b8[2,3]@2) | error:extra | error:extra: symgrad raises TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor,
torch.isclose | torch.isclose(f32[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Float did not match Double
torch.isclose | torch.isclose(f64[2,3], f64[2,3], rtol=-1.0) | error:missing | error:missing: torch raises RuntimeError: rtol must be greater than or equal to zero, but got -1
torch.isclose | torch.isclose(i64[2,3]@1, f64[2,3]@1) | error:missing | error:missing: torch raises RuntimeError: Long did not match Double
torch.isneginf | torch.isneginf(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support complex inputs.
torch.isneginf | torch.isneginf(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support complex inputs.
torch.isneginf | torch.isneginf(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support complex inputs.
torch.isneginf | torch.isneginf(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support non-boolean outputs.
torch.isneginf | torch.isneginf(f64[2,3], out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support non-boolean outputs.
torch.isneginf | torch.isneginf(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support non-boolean outputs.
torch.isneginf | torch.isneginf(f64[2,3]~g, out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support non-boolean outputs.
torch.isneginf | torch.isneginf(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isneginf does not support non-boolean outputs.
torch.isposinf | torch.isposinf(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support complex inputs.
torch.isposinf | torch.isposinf(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support complex inputs.
torch.isposinf | torch.isposinf(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support complex inputs.
torch.isposinf | torch.isposinf(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support non-boolean outputs.
torch.isposinf | torch.isposinf(f64[2,3], out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support non-boolean outputs.
torch.isposinf | torch.isposinf(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support non-boolean outputs.
torch.isposinf | torch.isposinf(f64[2,3]~g, out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support non-boolean outputs.
torch.isposinf | torch.isposinf(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: isposinf does not support non-boolean outputs.
torch.kthvalue | torch.kthvalue(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "kthvalue_cpu" not implemented for 'Bool'
torch.kthvalue | torch.kthvalue(f64[0,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
torch.kthvalue | torch.kthvalue(f64[16]:e, 3) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
torch.kthvalue | torch.kthvalue(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
torch.kthvalue | torch.kthvalue(f64[2,3], 1, dim=0, keepdim=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch KthvalueBackward0
torch.kthvalue | torch.kthvalue(f64[2,3], 2, 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
torch.kthvalue | torch.kthvalue(f64[2,3], 3, -1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch KthvalueBackward0
torch.kthvalue | torch.kthvalue(f64[3,4]:t, 2, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch KthvalueBackward0
torch.kthvalue | torch.kthvalue(f64[], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch KthvalueBackward0
torch.ldexp | torch.ldexp(c64[2,3], f64[3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
torch.ldexp | torch.ldexp(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: ldexp can't be cast to the desired output type Long
torch.ldexp | torch.ldexp(f64[], i32[3]) | dtype[0] | dtype[0]: symgrad float32, torch float64
torch.le | torch.le(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.lerp | torch.lerp(b8[2,3]:n, b8[2,3]:n, b8[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Bool'
torch.lerp | torch.lerp(f32[2,3]:n, f64[3]:n, f32[2,1]:01) | error:missing | error:missing: torch raises RuntimeError: expected dtype float for `end` but got dtype double
torch.lerp | torch.lerp(i32[2,3]:n, i32[2,3]:n, i32[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Int'
torch.lerp | torch.lerp(i64[2,3]:n, f32[2,3]:n, f64[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: expected dtype long int for `end` but got dtype float
torch.lerp | torch.lerp(i64[2,3]:n, i64[2,3]:n, i64[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Long'
torch.lerp | torch.lerp(u8[2,3]:n, u8[2,3]:n, u8[2,3]:01) | error:missing | error:missing: torch raises RuntimeError: "lerp_kernel_tensor" not implemented for 'Byte'
torch.less | torch.less(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.less_equal | torch.less_equal(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.lgamma | torch.lgamma(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.lgamma | torch.lgamma(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.lgamma | torch.lgamma(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.lgamma | torch.lgamma(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.log | torch.log(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.log10 | torch.log10(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.log1p | torch.log1p(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.log2 | torch.log2(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.log_softmax | torch.log_softmax(b8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Bool'
torch.log_softmax | torch.log_softmax(f32[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
torch.log_softmax | torch.log_softmax(f64[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
torch.log_softmax | torch.log_softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Int'
torch.log_softmax | torch.log_softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Long'
torch.log_softmax | torch.log_softmax(i64[2,3], 1, dtype=torch.float32) | error:extra | error:extra: symgrad raises TypeError: log_softmax() got an unexpected keyword argument 'dtype'
torch.log_softmax | torch.log_softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "log_softmax_lastdim_kernel_impl" not implemented for 'Byte'
torch.logaddexp | torch.logaddexp(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Bool'
torch.logaddexp | torch.logaddexp(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
torch.logaddexp | torch.logaddexp(c128[2,3], c128[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
torch.logaddexp | torch.logaddexp(c64[2,3], f64[3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
torch.logaddexp | torch.logaddexp(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.logaddexp | torch.logaddexp(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Int'
torch.logaddexp | torch.logaddexp(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
torch.logaddexp | torch.logaddexp(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
torch.logaddexp | torch.logaddexp(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
torch.logaddexp | torch.logaddexp(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
torch.logaddexp | torch.logaddexp(i64[2,3], i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
torch.logaddexp | torch.logaddexp(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Byte'
torch.logaddexp | torch.logaddexp(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Byte'
torch.logaddexp | torch.logaddexp(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Long'
torch.logaddexp | torch.logaddexp(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp_cpu" not implemented for 'Byte'
torch.logaddexp2 | torch.logaddexp2(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Bool'
torch.logaddexp2 | torch.logaddexp2(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
torch.logaddexp2 | torch.logaddexp2(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.logaddexp2 | torch.logaddexp2(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.logaddexp2 | torch.logaddexp2(f16[2,3], f16[2,3]) | value[0] | value[0]: at 0: symgrad 0.024414, torch 0.024658
torch.logaddexp2 | torch.logaddexp2(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.logaddexp2 | torch.logaddexp2(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Int'
torch.logaddexp2 | torch.logaddexp2(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
torch.logaddexp2 | torch.logaddexp2(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
torch.logaddexp2 | torch.logaddexp2(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
torch.logaddexp2 | torch.logaddexp2(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
torch.logaddexp2 | torch.logaddexp2(i64[2,3], i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
torch.logaddexp2 | torch.logaddexp2(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Byte'
torch.logaddexp2 | torch.logaddexp2(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Byte'
torch.logaddexp2 | torch.logaddexp2(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Long'
torch.logaddexp2 | torch.logaddexp2(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logaddexp2_cpu" not implemented for 'Byte'
torch.logcumsumexp | torch.logcumsumexp(f64[16]:e, 0) | grad[0] | grad[0]: value at 12: symgrad 0.0, torch nan
torch.logdet | torch.logdet(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.logdet | torch.logdet(f64[3,3]:sing) | grad[0] value[0] | grad[0]: value at 0: symgrad nan, torch 0.0
torch.logit | torch.logit(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
torch.logit | torch.logit(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexDouble'
torch.logit | torch.logit(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "logit_cpu" not implemented for 'ComplexFloat'
torch.logit | torch.logit(f32[16]:e) | grad[0] | grad[0]: value at 12: symgrad -inf, torch inf
torch.logit | torch.logit(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.logit | torch.logit(f64[16]:e, 1e-06) | grad[0] | grad[0]: value at 10: symgrad nan, torch 0.0
torch.logsumexp | torch.logsumexp(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.lt | torch.lt(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.masked_fill | torch.masked_fill(f64[3], b8[2,3], 1.5) | error:extra | error:extra: symgrad raises RuntimeError: masked_fill: the mask of shape torch.Size([2, 3]) does not broadcast to the inpu
torch.masked_scatter | torch.masked_scatter(f64[3], b8[2,3], f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: expand: the target shape (3,) has fewer dimensions than the tensor's shape (2, 3
torch.masked_select | torch.masked_select(f32[2,3], b8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
torch.masked_select | torch.masked_select(f64[0,3], b8[0,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
torch.masked_select | torch.masked_select(f64[2,3], b8[2,1]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
torch.masked_select | torch.masked_select(f64[2,3], b8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
torch.masked_select | torch.masked_select(f64[2,3], b8[3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
torch.masked_select | torch.masked_select(f64[2,3], b8[4]) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.masked_select | torch.masked_select(f64[2,3], i64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.masked_select | torch.masked_select(f64[2,3], u8[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.masked_select | torch.masked_select(f64[3], b8[2,3]) | grad_fn[0] | grad_fn[0]: symgrad IndexBackward0, torch MaskedSelectBackward0
torch.masked_select | torch.masked_select(f64[], b8[]) | error:extra | error:extra: symgrad raises IndexError: list index out of range
torch.matmul | torch.matmul(f64[1,2,3], f64[4,3,2]) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch CloneBackward0
torch.matmul | torch.matmul(f64[2,3], [[1.0], [2.0], [3.0]]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.matrix_power | torch.matrix_power(b8[3,3], 2) | error:missing | error:missing: torch raises RuntimeError: "addmm_impl_cpu_" not implemented for 'Bool'
torch.matrix_power | torch.matrix_power(f64[3,3], -1) | error:extra | error:extra: symgrad raises RuntimeError: matrix_power with a negative exponent (-1) needs an inverse: compute matrix_powe
torch.matrix_power | torch.matrix_power(f64[3,3], -2) | error:extra | error:extra: symgrad raises RuntimeError: matrix_power with a negative exponent (-2) needs an inverse: compute matrix_powe
torch.matrix_power | torch.matrix_power(f64[3,3]:sing, -1) | error:extra | error:extra: symgrad raises RuntimeError: matrix_power with a negative exponent (-1) needs an inverse: compute matrix_powe
torch.matrix_power | torch.matrix_power(i32[3,3], 2) | dtype[0] | dtype[0]: symgrad int64, torch int32
torch.matrix_power | torch.matrix_power(u8[3,3], 2) | dtype[0] | dtype[0]: symgrad int64, torch uint8
torch.max | torch.max(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "max_all" not implemented for 'ComplexDouble'
torch.max | torch.max(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.max | torch.max(f64[], -1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MaxBackward0
torch.max | torch.max(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MaxBackward0
torch.maximum | torch.maximum(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: maximum not implemented for complex tensors.
torch.maximum | torch.maximum(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: maximum not implemented for complex tensors.
torch.maximum | torch.maximum(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.maximum | torch.maximum(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
torch.mean | torch.mean(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.mean | torch.mean(f64[2,3], dim=None) | grad_fn[0] | grad_fn[0]: symgrad MeanBackward0, torch MeanBackward1
torch.median | torch.median(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'Bool'
torch.median | torch.median(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'ComplexDouble'
torch.median | torch.median(f32[2,3]:t) | grad[0] | grad[0]: value at 1: symgrad 1.0, torch 0.333333343
torch.median | torch.median(f64[0,3]) | error:extra | error:extra: symgrad raises RuntimeError: kthvalue(): selected number k out of range for dimension 0
torch.median | torch.median(f64[0]) | error:extra | error:extra: symgrad raises RuntimeError: kthvalue(): selected number k out of range for dimension 0
torch.meshgrid | torch.meshgrid(f64[2], i64[3], indexing='ij') | error:missing | error:missing: torch raises RuntimeError: meshgrid expects all tensors to have the same dtype
torch.meshgrid | torch.meshgrid(f64[2], indexing='bad') | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.meshgrid | torch.meshgrid(f64[], f64[2], indexing='ij') | grad_fn[1] | grad_fn[1]: symgrad ViewBackward0, torch ExpandBackward0
torch.min | torch.min(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "min_all" not implemented for 'ComplexDouble'
torch.min | torch.min(f64[0,3], 0) | error:class | error:class: symgrad RuntimeError, torch IndexError
torch.min | torch.min(f64[], -1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MinBackward0
torch.min | torch.min(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch MinBackward0
torch.minimum | torch.minimum(c128[2,3], c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: minimum not implemented for complex tensors.
torch.minimum | torch.minimum(c64[2,3], f64[3]) | error:missing | error:missing: torch raises RuntimeError: minimum not implemented for complex tensors.
torch.minimum | torch.minimum(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.minimum | torch.minimum(u8[2,3], -1) | error:class | error:class: symgrad OverflowError, torch TypeError
torch.mode | torch.mode(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "mode_cpu" not implemented for 'ComplexDouble'
torch.mode | torch.mode(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[0,3]) | error:extra | error:extra: symgrad raises ValueError: Cannot apply_along_axis when any iteration dimensions are 0
torch.mode | torch.mode(f64[0,3], 1) | error:extra | error:extra: symgrad raises ValueError: Cannot apply_along_axis when any iteration dimensions are 0
torch.mode | torch.mode(f64[0]) | error:class | error:class: symgrad ValueError, torch IndexError
torch.mode | torch.mode(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[2,3], -1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch ModeBackward0
torch.mode | torch.mode(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[2,3], dim=0, keepdim=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch ModeBackward0
torch.mode | torch.mode(f64[3,4]:t, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[4,4]:e, 1) | grad_fn[0] value[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[5,2]:e, 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch ModeBackward0
torch.mode | torch.mode(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ModeBackward0
torch.mode | torch.mode(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch ModeBackward0
torch.movedim | torch.movedim(f64[], 0, 0) | error:extra | error:extra: symgrad raises IndexError: list assignment index out of range
torch.msort | torch.msort(f32[3,2]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.msort | torch.msort(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.msort | torch.msort(f64[3,2]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.msort | torch.msort(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch SortBackward0
torch.mul | torch.mul(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.mul | torch.mul(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.multiply | torch.multiply(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.multiply | torch.multiply(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.mvlgamma | torch.mvlgamma(b8[2,3]:p, 2) | error:missing | error:missing: torch raises RuntimeError: The input tensor may not be a boolean tensor.
torch.nan_to_num | torch.nan_to_num(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: nan_to_num does not support automatic differentiation for outputs with complex d
torch.nan_to_num | torch.nan_to_num(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: nan_to_num does not support automatic differentiation for outputs with complex d
torch.nan_to_num | torch.nan_to_num(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: nan_to_num does not support automatic differentiation for outputs with complex d
torch.nan_to_num | torch.nan_to_num(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: nan_to_num: dtype of out: Long should be same as input: Float
torch.nan_to_num | torch.nan_to_num(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: nan_to_num: dtype of out: Float should be same as input: Double
torch.nan_to_num | torch.nan_to_num(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: nan_to_num: dtype of out: Float should be same as input: Long
torch.nanmean | torch.nanmean(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.nanmean | torch.nanmean(i64[2,3], dtype=torch.float64) | error:missing | error:missing: torch raises RuntimeError: nanmean(): expected input to have floating point or complex dtype but got Long
torch.nanmedian | torch.nanmedian(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'Bool'
torch.nanmedian | torch.nanmedian(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "median_cpu" not implemented for 'ComplexDouble'
torch.nanmedian | torch.nanmedian(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
torch.nanmedian | torch.nanmedian(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
torch.nanmedian | torch.nanmedian(f32[2,3]:t) | grad[0] grad_fn[0] | grad[0]: value at 5: symgrad 1.0, torch 0.333333343
torch.nanmedian | torch.nanmedian(f64[0,3]) | error:extra | error:extra: symgrad raises IndexError: gather: index out of range for dimension 0 of size 0
torch.nanmedian | torch.nanmedian(f64[0,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[0]) | error:extra | error:extra: symgrad raises IndexError: gather: index out of range for dimension 0 of size 0
torch.nanmedian | torch.nanmedian(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
torch.nanmedian | torch.nanmedian(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
torch.nanmedian | torch.nanmedian(f64[2,3], -1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[2,3], dim=0, keepdim=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[3,4]:t, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[4,4]:e, 1) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[5,2]:e, 0) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch NanmedianBackward1
torch.nanmedian | torch.nanmedian(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward0
torch.nanmedian | torch.nanmedian(f64[], 0) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch NanmedianBackward1
torch.nanquantile | torch.nanquantile(f16[2,3], 0.25) | error:missing | error:missing: torch raises RuntimeError: quantile() input tensor must be either float or double dtype
torch.nanquantile | torch.nanquantile(f64[0], 0.5) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.nanquantile | torch.nanquantile(f64[2,3], 0.3, 1, out=f64[2]~g) | error:extra | error:extra: symgrad raises RuntimeError: functions with out=... arguments don't support automatic differentiation, but on
torch.nansum | torch.nansum(b8[2,3], dtype=torch.int32) | dtype[0] | dtype[0]: symgrad int64, torch int32
torch.nansum | torch.nansum(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: nansum on CPU does not support complex inputs
torch.nansum | torch.nansum(f32[2,3], dtype=torch.int64) | error:missing | error:missing: torch raises RuntimeError: Autograd not support dtype: Long
torch.nansum | torch.nansum(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.narrow | torch.narrow(f64[2,3], 1, 2, 2) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.ne | torch.ne(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.neg | torch.neg(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.neg | torch.neg(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.neg | torch.neg(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.neg | torch.neg(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.negative | torch.negative(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.negative | torch.negative(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.negative | torch.negative(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.negative | torch.negative(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.nextafter | torch.nextafter(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Bool'
torch.nextafter | torch.nextafter(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
torch.nextafter | torch.nextafter(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.nextafter | torch.nextafter(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.nextafter | torch.nextafter(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.nextafter | torch.nextafter(i32[2,3], i32[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Int'
torch.nextafter | torch.nextafter(i32[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
torch.nextafter | torch.nextafter(i64[14]:e, i64[14]:e) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
torch.nextafter | torch.nextafter(i64[14]:t, i64[14]:t) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
torch.nextafter | torch.nextafter(i64[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
torch.nextafter | torch.nextafter(i64[2,3], i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
torch.nextafter | torch.nextafter(i64[], u8[3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Byte'
torch.nextafter | torch.nextafter(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Byte'
torch.nextafter | torch.nextafter(u8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Long'
torch.nextafter | torch.nextafter(u8[2,3], u8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "nextafter_cpu" not implemented for 'Byte'
torch.norm | torch.norm(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got Co
torch.norm | torch.norm(f64[2,3], 1, True) | error:missing | error:missing: torch raises TypeError: linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints, but fou
torch.norm | torch.norm(f64[2,3], dtype=torch.float32) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: the dtype of the input (Double) should be convertible withou
torch.norm | torch.norm(i64[2,3], dtype=torch.float64) | error:missing | error:missing: torch raises RuntimeError: linalg.vector_norm: Expected a floating point or complex tensor as input. Got Lo
torch.not_equal | torch.not_equal(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.ones | torch.ones((2, -1)) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.ones | torch.ones((2, 3), out=f64[2,3]~g) | dtype[0] identity | dtype[0]: symgrad float32, torch float64
torch.ones | torch.ones(-1) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.outer | torch.outer(f64[3], 2.0) | error:class | error:class: symgrad AttributeError, torch TypeError
torch.polar | torch.polar(2.5, f64[2,3]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(3, i64[2,3]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(b8[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(c128[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f16[16]:e, f16[16]:e) | error:missing | error:missing: torch raises RuntimeError: "polar_cpu" not implemented for 'Half'
torch.polar | torch.polar(f16[2,3], 100000.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f16[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: "polar_cpu" not implemented for 'Half'
torch.polar | torch.polar(f32[2,3], 2) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Expected object of scalar type ComplexFloat but got scalar type Long for argumen
torch.polar | torch.polar(f64[16]:e, -0.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f64[16]:e, 0.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f64[2,3], [1.0, 2.0, 3.0]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f64[2,3], inf) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f64[2,3], nan) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(f64[2,3]~g, f64[3]~g, out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Expected object of scalar type ComplexDouble but got scalar type Double for argu
torch.polar | torch.polar(i64[2,3], 2.5) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(i64[2,3], 3) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(i64[2,3], True) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polar | torch.polar(u8[2,3], -1) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.polygamma | torch.polygamma(1.5, f64[2,3]) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.positive | torch.positive(b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.positive | torch.positive(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.pow | torch.pow(3, i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "pow" not implemented for 'Bool'
torch.pow | torch.pow(b8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(c128[2,3], c128[2,3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
torch.pow | torch.pow(c64[2,3], f64[3]) | grad:error | grad:error: symgrad RuntimeError, torch no error
torch.pow | torch.pow(f16[2,3], 100000.0) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type c10::Half without overflow
torch.pow | torch.pow(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.pow | torch.pow(i32[2,3], i32[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int32
torch.pow | torch.pow(i32[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(i64[14]:e, i64[14]:e) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(i64[14]:t, i64[14]:t) | dtype[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(i64[2,3], True) | dtype[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(i64[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(i64[2,3], i64[2,3], out=f32[2,3]~g) | value[0] | value[0]: at 1: symgrad inf, torch 0.0
torch.pow | torch.pow(i64[2,3], i64[2,3]:t) | dtype[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(i64[], u8[3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
torch.pow | torch.pow(u8[2,3], b8[2,3]) | dtype[0] | dtype[0]: symgrad float32, torch uint8
torch.pow | torch.pow(u8[2,3], i64[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch int64
torch.pow | torch.pow(u8[2,3], u8[2,3]) | dtype[0] value[0] | dtype[0]: symgrad float32, torch uint8
torch.prod | torch.prod(f32[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
torch.prod | torch.prod(f32[2,3], dtype=torch.int64) | error:missing | error:missing: torch raises RuntimeError: Autograd not support dtype: Long
torch.prod | torch.prod(f64[16]:e) | grad[0] | grad[0]: value at 0: symgrad nan, torch 0.0
torch.quantile | torch.quantile(f16[2,3], 0.25) | error:missing | error:missing: torch raises RuntimeError: quantile() input tensor must be either float or double dtype
torch.quantile | torch.quantile(f64[0], 0.5) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.quantile | torch.quantile(f64[2,3], 0.3, 1, out=f64[2]~g) | error:extra | error:extra: symgrad raises RuntimeError: functions with out=... arguments don't support automatic differentiation, but on
torch.rad2deg | torch.rad2deg(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
torch.rad2deg | torch.rad2deg(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
torch.rad2deg | torch.rad2deg(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: rad2deg is not supported for complex tensors.
torch.rad2deg | torch.rad2deg(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.rand | torch.rand((2, 3), out=f64[2,3]~g) | value[0] | value[0]: at 3: symgrad 0.1320304870605, torch 0.920747684122
torch.randperm | torch.randperm(300, dtype=torch.uint8) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8_t without overflow
torch.real | torch.real(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.reciprocal | torch.reciprocal(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.relu | torch.relu(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Boolean inputs not supported for relu
torch.relu | torch.relu(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
torch.relu | torch.relu(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
torch.relu | torch.relu(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: clamp is not supported for complex types
torch.relu | torch.relu(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.remainder | torch.remainder(2.5, f64[2,3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
torch.remainder | torch.remainder(b8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "remainder_cpu" not implemented for 'Bool'
torch.remainder | torch.remainder(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.remainder | torch.remainder(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.remainder | torch.remainder(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.remainder | torch.remainder(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.remainder | torch.remainder(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.repeat_interleave | torch.repeat_interleave(f32[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
torch.repeat_interleave | torch.repeat_interleave(f64[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
torch.repeat_interleave | torch.repeat_interleave(f64[2,3], 2, 0) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
torch.repeat_interleave | torch.repeat_interleave(f64[2,3], 2, dim=-1) | grad_fn[0] | grad_fn[0]: symgrad UnsafeViewBackward0, torch ViewBackward0
torch.repeat_interleave | torch.repeat_interleave(f64[2,3], i64[2]:idx3, 0) | error:extra | error:extra: symgrad raises RuntimeError: repeat_interleave with a tensor of repeats is not supported yet; give an int
torch.repeat_interleave | torch.repeat_interleave(f64[2,3], i64[3]:idx3, 1) | error:extra | error:extra: symgrad raises RuntimeError: repeat_interleave with a tensor of repeats is not supported yet; give an int
torch.repeat_interleave | torch.repeat_interleave(i64[3]:idx3) | error:extra | error:extra: symgrad raises TypeError: repeat_interleave() missing 1 required positional argument: 'repeats'
torch.resolve_conj | torch.resolve_conj(f64[2,3], out=f64[2,3]~g) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.roll | torch.roll(f32[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
torch.roll | torch.roll(f64[2,3], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
torch.roll | torch.roll(f64[2,3], 7) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
torch.roll | torch.roll(f64[], 1) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch RollBackward0
torch.round | torch.round(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
torch.round | torch.round(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexDouble'
torch.round | torch.round(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: "round_vml_cpu" not implemented for 'ComplexFloat'
torch.round | torch.round(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.round | torch.round(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.round | torch.round(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.row_stack | torch.row_stack([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CatBackward0
torch.rsqrt | torch.rsqrt(c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(c128[8]:e) | grad[0] grad_fn[0] | grad[0]: value at 0: symgrad nan, torch -0.0
torch.rsqrt | torch.rsqrt(c64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.rsqrt | torch.rsqrt(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.rsqrt | torch.rsqrt(f64[]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch RsqrtBackward0
torch.scatter | torch.scatter(f32[2,4], 1, i64[2,3]:perm4, f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
torch.scatter | torch.scatter(f64[2,4], -1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
torch.scatter | torch.scatter(f64[2,4], 0, i64[1,4]:idx2, f64[1,4]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
torch.scatter | torch.scatter(f64[2,4], 1, i32[2,3]:perm4, f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: scatter(): Expected dtype int64 for index, got int32
torch.scatter | torch.scatter(f64[2,4], 1, i64[0,3]:idx4, f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:idx4, f64[2,3]) #dup | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:idx4, f64[2,3], reduce='add') #dup | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:neg4, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm4, 2.0, reduce='multiply') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm4, 2.5) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward1
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward0
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[2,3], reduce='add') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[2,3], reduce='multiply') | error:extra | error:extra: symgrad raises RuntimeError: scatter(reduce=...) is not supported yet; use scatter_add or scatter_reduce
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm4, f64[3,5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm4, value=1.0) | grad_fn[0] | grad_fn[0]: symgrad WhereBackward0, torch ScatterBackward1
torch.scatter | torch.scatter(f64[2,4], 1, i64[2,3]:perm5, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.scatter | torch.scatter(f64[], 0, i64[]:idx1, f64[]) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
torch.scatter_add | torch.scatter_add(f32[2,4], 1, i64[2,3]:perm4, f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
torch.scatter_add | torch.scatter_add(f64[2,4], -1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
torch.scatter_add | torch.scatter_add(f64[2,4], 0, i64[1,4]:idx2, f64[1,4]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
torch.scatter_add | torch.scatter_add(f64[2,4], 1, i32[2,3]:perm4, f64[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: scatter(): Expected dtype int64 for index, got int32
torch.scatter_add | torch.scatter_add(f64[2,4], 1, i64[0,3]:idx4, f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
torch.scatter_add | torch.scatter_add(f64[2,4], 1, i64[2,3]:idx4, f64[2,3]) #dup | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
torch.scatter_add | torch.scatter_add(f64[2,4], 1, i64[2,3]:neg4, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.scatter_add | torch.scatter_add(f64[2,4], 1, i64[2,3]:perm4, f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad AddBackward0, torch ScatterAddBackward0
torch.scatter_add | torch.scatter_add(f64[2,4], 1, i64[2,3]:perm4, f64[3,5]) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
torch.scatter_add | torch.scatter_add(f64[2,4], 1, i64[2,3]:perm5, f64[2,3]) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.scatter_add | torch.scatter_add(f64[], 0, i64[]:idx1, f64[]) | error:extra | error:extra: symgrad raises IndexError: tuple index out of range
torch.searchsorted | torch.searchsorted(b8[5]:sorted, b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "searchsorted_out_cpu" not implemented for 'Bool'
torch.searchsorted | torch.searchsorted(f64[5]:e, f64[16]:e) | value[0] | value[0]: at 14: symgrad 5, torch 2
torch.searchsorted | torch.searchsorted(f64[5]:sorted, f64[2,3], out_int32=True) | dtype[0] | dtype[0]: symgrad int64, torch int32
torch.sgn | torch.sgn(c128[8]:e) | value[0] | value[0]: at 1: symgrad nan, torch -0.0
torch.sgn | torch.sgn(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.sgn | torch.sgn(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.sgn | torch.sgn(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.sigmoid | torch.sigmoid(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.sign | torch.sign(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
torch.sign | torch.sign(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
torch.sign | torch.sign(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Unlike NumPy, torch.sign is not intended to support complex numbers. Please use
torch.sign | torch.sign(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.sign | torch.sign(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.sign | torch.sign(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.signbit | torch.signbit(c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.signbit | torch.signbit(c128[8]:e) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.signbit | torch.signbit(c64[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.signbit | torch.signbit(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: signbit does not support non-boolean outputs.
torch.signbit | torch.signbit(f64[2,3], out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: signbit does not support non-boolean outputs.
torch.signbit | torch.signbit(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: signbit does not support non-boolean outputs.
torch.signbit | torch.signbit(f64[2,3]~g, out=f64[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: signbit does not support non-boolean outputs.
torch.signbit | torch.signbit(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: signbit does not support non-boolean outputs.
torch.sin | torch.sin(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.sinc | torch.sinc(c128[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
torch.sinc | torch.sinc(c128[8]:e) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex128
torch.sinc | torch.sinc(c64[2,3]) | error:extra | error:extra: symgrad raises TypeError: expected a floating dtype, got complex64
torch.sinc | torch.sinc(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.sinh | torch.sinh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.slogdet | torch.slogdet(f16[3,3]:spd) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.slogdet | torch.slogdet(f32[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[1,1]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[2,0,0]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[2,3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[3,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[3,3]:e) | grad_fn[0] grad_fn[1] value[0] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[3,3]:sing) | grad[0] grad_fn[0] grad_fn[1] value[0] value[1] | grad[0]: value at 0: symgrad nan, torch -2.69956263069e+16
torch.slogdet | torch.slogdet(f64[3,3]:spd) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.slogdet | torch.slogdet(f64[3,3]:tri) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch LinalgSlogdetBackward0
torch.softmax | torch.softmax(b8[2,3], 1) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.softmax | torch.softmax(f32[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
torch.softmax | torch.softmax(f64[2,3], 1, dtype=torch.float64) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
torch.softmax | torch.softmax(i32[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Int'
torch.softmax | torch.softmax(i64[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Long'
torch.softmax | torch.softmax(i64[2,3], 1, dtype=torch.float32) | error:extra | error:extra: symgrad raises TypeError: softmax() got an unexpected keyword argument 'dtype'
torch.softmax | torch.softmax(u8[2,3], 1) | error:missing | error:missing: torch raises RuntimeError: "softmax_lastdim_kernel_impl" not implemented for 'Byte'
torch.sort | torch.sort(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[16]:e, descending=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[2,3,4], 1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[2,3], -1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[2,3], 1, True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[2,3], descending=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[2,3], dim=0, stable=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward1
torch.sort | torch.sort(f64[3,4]:t, 1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward0
torch.sort | torch.sort(f64[3,4]:t, stable=True) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch SortBackward1
torch.sort | torch.sort(f64[]) | grad_fn[0] | grad_fn[0]: symgrad ViewBackward0, torch SortBackward0
torch.split | torch.split(f32[2,3], 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.split | torch.split(f64[0,3], 1) | grad_fn[0] | grad_fn[0]: symgrad None, torch SplitBackward0
torch.split | torch.split(f64[2,3], (1, 1), 0) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitWithSizesBackward0
torch.split | torch.split(f64[2,3], 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.split | torch.split(f64[2,3], 2, -1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.split | torch.split(f64[2,3], 2, 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.split | torch.split(f64[2,3], 5) | grad_fn[0] | grad_fn[0]: symgrad None, torch SplitBackward0
torch.split | torch.split(f64[2,3], [1, 2], 1) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SliceBackward0, torch SplitWithSizesBackward0
torch.split | torch.split(f64[2,3], [3], 1) | grad_fn[0] | grad_fn[0]: symgrad None, torch SplitWithSizesBackward0
torch.split | torch.split(f64[7], 3) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SliceBackward0, torch SplitBackward0
torch.sqrt | torch.sqrt(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.square | torch.square(c128[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(c128[8]:e) | grad[0] grad_fn[0] | grad[0]: value at 0: symgrad inf, torch nan
torch.square | torch.square(c64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f32[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f32[2,3]:t) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.square | torch.square(f64[0]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f64[16]:e) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f64[2,3]:p) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f64[2,3]:u) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f64[5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.square | torch.square(f64[]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch PowBackward0
torch.squeeze | torch.squeeze(f64[1,1], (0, 1)) | grad_fn[0] | grad_fn[0]: symgrad SqueezeBackward1, torch SqueezeBackward2
torch.std | torch.std(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: std(): std and var only support floating point and complex dtypes, got complex12
torch.std | torch.std(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.223488137026, torch -inf
torch.std | torch.std(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.std_mean | torch.std_mean(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: std_mean(): std and var only support floating point and complex dtypes, got comp
torch.std_mean | torch.std_mean(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.05682147035931, torch -inf
torch.std_mean | torch.std_mean(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.sub | torch.sub(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.sub | torch.sub(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.sub | torch.sub(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.sub | torch.sub(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.sub | torch.sub(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.sub | torch.sub(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.sub | torch.sub(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
torch.sub | torch.sub(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.sub | torch.sub(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.subtract | torch.subtract(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.subtract | torch.subtract(b8[2,3], b8[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.subtract | torch.subtract(b8[2,3], f16[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.subtract | torch.subtract(b8[2,3], i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.subtract | torch.subtract(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.subtract | torch.subtract(i64[2,3], True) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.subtract | torch.subtract(i64[2,3], i64[2,3], alpha=0.5) | error:missing | error:missing: torch raises RuntimeError: For integral input tensors, argument alpha must not be a floating point number.
torch.subtract | torch.subtract(u8[2,3], -1) | error:extra | error:extra: symgrad raises OverflowError: the Python number -1 does not fit in uint8, the dtype it combines with here (int
torch.subtract | torch.subtract(u8[2,3], b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are t
torch.sum | torch.sum(f32[2,3], dtype=torch.int64) | error:missing | error:missing: torch raises RuntimeError: Autograd not support dtype: Long
torch.sum | torch.sum(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.sum | torch.sum(f64[2,3], dim=None) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch SumBackward1
torch.take_along_dim | torch.take_along_dim(f64[2,3], i32[2,2]:idx3, 1) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.take_along_dim | torch.take_along_dim(f64[2,3], i64[2,2]:idx4, 1) | error:extra | error:extra: symgrad raises IndexError: gather: index out of range for dimension 1 of size 3
torch.tan | torch.tan(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.tanh | torch.tanh(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.tensor | torch.tensor(300, dtype=torch.uint8) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8 without overflow
torch.tensor | torch.tensor(9223372036854775808) | error:class | error:class: symgrad TypeError, torch ValueError
torch.tensor | torch.tensor([1.0, 2.5, -3.0], dtype=torch.uint8) | error:missing | error:missing: torch raises RuntimeError: value cannot be converted to type uint8 without overflow
torch.tensor | torch.tensor([f64[2], f64[2]]) | error:missing | error:missing: torch raises ValueError: only one element tensors can be converted to Python scalars
torch.tensor | torch.tensor([f64[], 2.0]) | dtype[0] | dtype[0]: symgrad float32, torch float64
torch.tensor | torch.tensor([f64[], f64[]]) | dtype[0] | dtype[0]: symgrad float32, torch float64
torch.tensor_split | torch.tensor_split(f64[0,3], 2) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad None, torch SliceBackward0
torch.tensor_split | torch.tensor_split(f64[2,3], (0, 3), 1) | grad_fn[1] | grad_fn[1]: symgrad None, torch SliceBackward0
torch.tensordot | torch.tensordot(f64[2,3], f64[3,4], -1) | error:missing | error:missing: torch raises RuntimeError: tensordot expects dims >= 0, but got dims=-1
torch.tensordot | torch.tensordot(f64[2,3], f64[3], 3) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.topk | torch.topk(b8[2,3], 2) | error:missing | error:missing: torch raises RuntimeError: topk does not support bool dtypes on CPU
torch.topk | torch.topk(f32[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[0,3], 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[16]:e, 5) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[2,3], 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[2,3], 1, 0) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[2,3], 2) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[2,3], 2, -1, False) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[2,3], 2, largest=False, sorted=False) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[3,4]:t, 2, 1) | grad_fn[0] | grad_fn[0]: symgrad GatherBackward0, torch TopkBackward0
torch.topk | torch.topk(f64[], 1) | grad_fn[0] shape[1] | grad_fn[0]: symgrad ViewBackward0, torch TopkBackward0
torch.trace | torch.trace(b8[2,3]) | error:missing | error:missing: torch raises RuntimeError: "trace" not implemented for 'Bool'
torch.trace | torch.trace(f32[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
torch.trace | torch.trace(f64[0,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
torch.trace | torch.trace(f64[2,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
torch.trace | torch.trace(f64[3,3]) | grad_fn[0] | grad_fn[0]: symgrad SumBackward0, torch TraceBackward0
torch.transpose | torch.transpose(f64[], 0, -1) | grad_fn[0] | grad_fn[0]: symgrad None, torch TransposeBackward0
torch.trapezoid | torch.trapezoid(b8[2,5]) | error:missing | error:missing: torch raises RuntimeError: trapezoid: received a bool input for `y`, but bool is not supported
torch.trapezoid | torch.trapezoid(f32[2,5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.trapezoid | torch.trapezoid(f64[0]) | grad[0] grad_fn[0] requires_grad[0] | grad[0]: symgrad a gradient, torch none
torch.trapezoid | torch.trapezoid(f64[2,3], 2.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.trapezoid | torch.trapezoid(f64[2,3], dim=0) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.trapezoid | torch.trapezoid(f64[2,3], dx=0.5) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.trapezoid | torch.trapezoid(f64[2,3], f64[2,3]:sorted) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward1
torch.trapezoid | torch.trapezoid(f64[2,3], f64[3]:sorted) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward1
torch.trapezoid | torch.trapezoid(f64[2,3], x=f64[3], dim=-1) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward1
torch.trapezoid | torch.trapezoid(f64[2,5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.trapz | torch.trapz(b8[2,5]) | error:missing | error:missing: torch raises RuntimeError: trapezoid: received a bool input for `y`, but bool is not supported
torch.trapz | torch.trapz(f32[2,5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.trapz | torch.trapz(f64[0]) | grad[0] grad_fn[0] requires_grad[0] | grad[0]: symgrad a gradient, torch none
torch.trapz | torch.trapz(f64[2,3], 2.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.trapz | torch.trapz(f64[2,3], dim=0) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.trapz | torch.trapz(f64[2,3], dx=0.5) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.trapz | torch.trapz(f64[2,3], f64[2,3]:sorted) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward1
torch.trapz | torch.trapz(f64[2,3], f64[3]:sorted) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward1
torch.trapz | torch.trapz(f64[2,3], x=f64[3], dim=-1) | grad_fn[0] | grad_fn[0]: symgrad DivBackward0, torch DivBackward1
torch.trapz | torch.trapz(f64[2,5]) | grad_fn[0] | grad_fn[0]: symgrad MulBackward0, torch MulBackward1
torch.true_divide | torch.true_divide(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.trunc | torch.trunc(c128[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
torch.trunc | torch.trunc(c128[8]:e) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
torch.trunc | torch.trunc(c64[2,3]) | error:missing | error:missing: torch raises RuntimeError: trunc is not supported for complex inputs
torch.trunc | torch.trunc(f32[2,3]~g, out=i64[0]) | error:missing | error:missing: torch raises RuntimeError: Found dtype Long but expected Float
torch.trunc | torch.trunc(f64[2,3]~g, out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Double
torch.trunc | torch.trunc(i64[2,3], out=f32[2,3]~g) | error:missing | error:missing: torch raises RuntimeError: Found dtype Float but expected Long
torch.typename | torch.typename(torch.float32) | value[0] | value[0]: symgrad 'symgrad.dtypes.DType', torch 'torch.dtype'
torch.unbind | torch.unbind(f32[2,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
torch.unbind | torch.unbind(f64[0,3], 1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
torch.unbind | torch.unbind(f64[2,3]) | grad_fn[0] grad_fn[1] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
torch.unbind | torch.unbind(f64[2,3], -1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
torch.unbind | torch.unbind(f64[2,3], 1) | grad_fn[0] grad_fn[1] grad_fn[2] | grad_fn[0]: symgrad SelectBackward0, torch UnbindBackward0
torch.unflatten | torch.unflatten(f64[], 0, (1,)) | error:class | error:class: symgrad IndexError, torch RuntimeError
torch.vander | torch.vander(f32[3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
torch.vander | torch.vander(f64[3]) | grad:error | grad:error: symgrad no error, torch RuntimeError
torch.vander | torch.vander(f64[3], 4) | grad:error | grad:error: symgrad no error, torch RuntimeError
torch.vander | torch.vander(f64[3], N=2, increasing=True) | grad:error grad_fn[0] | grad:error: symgrad no error, torch RuntimeError
torch.var | torch.var(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: var(): std and var only support floating point and complex dtypes, got complex12
torch.var | torch.var(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.6246378342071, torch -inf
torch.var | torch.var(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.var_mean | torch.var_mean(c128[2,3]) | error:extra | error:extra: symgrad raises RuntimeError: var_mean(): std and var only support floating point and complex dtypes, got comp
torch.var_mean | torch.var_mean(f64[2,3], ()) | grad[0] | grad[0]: value at 0: symgrad -0.4579711675404, torch -inf
torch.var_mean | torch.var_mean(f64[2,3], (0, 0)) | error:missing | error:missing: torch raises RuntimeError: dim 0 appears multiple times in the list of dims
torch.vdot | torch.vdot(f64[3], 2.0) | error:class | error:class: symgrad RuntimeError, torch TypeError
torch.view_as_complex | torch.view_as_complex(f16[2]) | error:class | error:class: symgrad RuntimeError, torch unreadable result: TypeError
torch.view_as_complex | torch.view_as_complex(f16[3,2]) | error:class | error:class: symgrad RuntimeError, torch unreadable result: TypeError
torch.vstack | torch.vstack([f64[2,3]]) | grad_fn[0] | grad_fn[0]: symgrad None, torch CatBackward0
torch.where | torch.where(f32[2,3], f64[2,3], f64[2,3]) | error:missing | error:missing: torch raises RuntimeError: where expected condition to be a boolean tensor, but got a tensor with dtype Flo
torch.xlogy | torch.xlogy(c128[2,3], 2.5) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.xlogy | torch.xlogy(c128[2,3], c128[2,3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.xlogy | torch.xlogy(c64[2,3], f64[3]) | error:class | error:class: symgrad TypeError, torch RuntimeError
torch.xlogy | torch.xlogy(f32[2,3]~g, f32[3]~g, out=i64[2,3]) | error:missing | error:missing: torch raises RuntimeError: result type Float can't be cast to the desired output type Long
torch.zeros | torch.zeros((2, -1)) | error:class | error:class: symgrad ValueError, torch RuntimeError
torch.zeros | torch.zeros((2, 3), out=f64[2,3]~g) | dtype[0] identity | dtype[0]: symgrad float32, torch float64
torch.zeros | torch.zeros(-1) | error:class | error:class: symgrad ValueError, torch RuntimeError
"""
# --- open differences: end
