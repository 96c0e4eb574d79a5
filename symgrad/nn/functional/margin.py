"""Margin and ranking losses of ``torch.nn.functional``: soft_margin_loss,
hinge_embedding_loss, margin_ranking_loss, cosine_embedding_loss, multi_margin_loss,
multilabel_margin_loss and multilabel_soft_margin_loss.

Layer: front end (torch.nn mirror). Input: tensors (eager or traced), class-index targets
(int64) where torch takes them, and torch's keyword arguments (``reduction``, the deprecated
``size_average``/``reduce``, ``margin``, ``p``, ``weight``). Output: the loss tensor, built
from primitives in torch's order of operations. Losses torch composes from ATen ops
(hinge, margin ranking, cosine embedding, multilabel soft margin) are composed the same way
here and show the same grad_fns; those with a kernel of their own (``SoftMarginLossBackward0``,
``MultiMarginLossBackward0``, ``MultilabelMarginLossBackward0``) are composites. Result dtypes
are torch's for mixed float32/float64 operands (a target that is only compared with +-1 does
not promote). Checks of target values (class range) run eagerly; a traced target's values are
not known until the compiled code runs.
"""

from __future__ import annotations

from ... import dtypes

from ...frontend.core import grad_mode
from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import (clamp_min, composite, eq, exp, gather_along, gt, log1p,
                                         logical_and, logical_not, lt, mean, ne, sqrt, sum,
                                         where)
from ...frontend.functions.creation import arange, full_like, zeros_like
from ...frontend.functions.scans import cumsum
from .activation_more import floating, logsigmoid
from .loss import check_reduction, legacy_reduction, reduce_loss

_EPSILON = 9.999999960041972e-13     # torch's ``constexpr float EPSILON = 1e-12``


def _reduction(size_average, reduce, reduction: str) -> str:
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    return reduction


# ---------------------------------------------------------------- soft margin

def soft_margin_loss(input, target, size_average=None, reduce=None,  # noqa: A002
                     reduction: str = "mean") -> Tensor:
    """log(1 + exp(-y x)) (as log1p), in the input's dtype; not differentiable in the
    target (torch's error when it requires grad)."""
    reduction = _reduction(size_average, reduce, reduction)
    x, y = as_tensor(input), as_tensor(target)
    if y.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.")
    if not x.dtype.is_differentiable:   # torch computes in place in the input's dtype
        if x.dtype.is_bool:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                               "If you are trying to invert a mask, use the `~` or "
                               "`logical_not()` operator instead.")
        raise dtypes.cast_error(dtypes.float32, x.dtype)
    count = x.numel()

    def body(a):
        return reduce_loss(log1p(exp(((-a) * y).to(a.dtype))), reduction)

    def rule(g, out, ins):
        a = ins[0]
        z = exp(-y * a)
        norm = 1.0 / count if reduction == "mean" else 1.0
        grad = ((y * z).to(a.dtype) * -norm) / (z + 1.0)
        return ((grad.to(a.dtype) * g).to(a.dtype),)
    return composite("SoftMarginLossBackward0", body, [x], rule, uses_out=False)


# ---------------------------------------------------------------- hinge, ranking, cosine

def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None,  # noqa: A002
                         reduce=None, reduction: str = "mean") -> Tensor:
    """max(0, margin - x) where y != 1, plus x where y != -1 (y is +-1). As torch's, in
    ``x``'s dtype: ``margin`` fills a tensor like ``x`` (an integer ``x``: its mean fails)."""
    reduction = _reduction(size_average, reduce, reduction)
    x, y = as_tensor(input), as_tensor(target)
    zeros = zeros_like(x)
    margin_clamp = clamp_min(full_like(x, margin) - x, 0)
    output = where(ne(y, 1), margin_clamp, zeros) + where(ne(y, -1), x, zeros)
    return reduce_loss(output, reduction)


def margin_ranking_loss(input1, input2, target, margin: float = 0, size_average=None,
                        reduce=None, reduction: str = "mean") -> Tensor:
    """max(0, -y (x1 - x2) + margin)."""
    reduction = _reduction(size_average, reduce, reduction)
    x1, x2, y = as_tensor(input1), as_tensor(input2), as_tensor(target)
    if x1.ndim != x2.ndim or x1.ndim != y.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {x1.size()}, input2: {x2.size()}, target: "
                           f"{y.size()} ")
    diff = x1 - x2                    # (torch checks the subtraction first)
    # torch's margin is a double: a Python int margin still makes an integer loss floating
    margin = float(margin) if isinstance(margin, int) else margin
    return reduce_loss(clamp_min(-y * diff + margin, 0), reduction)


def _check_cosine_embedding(x1: Tensor, x2: Tensor, y: Tensor) -> None:
    if y.ndim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    want = 2 if y.ndim == 1 else 1
    if x1.ndim != want or x2.ndim != want:
        raise RuntimeError(f"{y.ndim}D target tensor expects {want}D input tensors, but found "
                           f"inputs with sizes {list(x1.shape)} and {list(x2.shape)}.")


def cosine_embedding_loss(input1, input2, target, margin: float = 0,
                          size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where y == 1, max(0, cos(x1, x2) - margin) where y == -1; the cosine
    is torch's: sum(x1 x2) / sqrt((|x1|^2 + 1e-12) (|x2|^2 + 1e-12))."""
    reduction = _reduction(size_average, reduce, reduction)
    x1, x2, y = as_tensor(input1), as_tensor(input2), as_tensor(target)
    _check_cosine_embedding(x1, x2, y)
    dim = y.ndim
    prod_sum = sum(x1 * x2, dim)
    mag1 = sum(x1 * x1, dim) + _EPSILON
    mag2 = sum(x2 * x2, dim) + _EPSILON
    cos = prod_sum / sqrt(mag1 * mag2)
    pos = 1 - cos
    neg = clamp_min(cos - margin, 0)
    output = where(eq(y, 1), pos, 0.0) + where(eq(y, -1), neg, 0.0)
    return reduce_loss(output, reduction)


# ---------------------------------------------------------------- multilabel soft margin

def multilabel_soft_margin_loss(input, target, weight=None, size_average=None,  # noqa: A002
                                reduce=None, reduction: str = "mean") -> Tensor:
    """-(y log sigmoid(x) + (1 - y) log sigmoid(-x)), weighted, averaged over the classes
    (the last dim), then reduced over the samples."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    x, y = as_tensor(input), as_tensor(target)
    loss = -(y * logsigmoid(x) + (1 - y) * logsigmoid(-x))
    if weight is not None:
        loss = loss * as_tensor(weight)
    class_dim = x.ndim - 1
    loss = sum(loss, class_dim) / x.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return sum(loss)
    raise ValueError(f"{reduction} is not valid")


# ---------------------------------------------------------------- multi-class margin

def _frames(name: str, x: Tensor) -> tuple[int, int]:
    """(samples, classes) of a multi-class margin loss's input: (C,), (N, C) or a 0-d one."""
    valid = (x.ndim == 2 and x.shape[1] != 0) or (x.ndim == 1 and x.shape[0] != 0) or x.ndim == 0
    if not valid:
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, "
                           f"but got: {list(x.shape)}")
    if x.ndim <= 1:
        return 1, (1 if x.ndim == 0 else x.shape[0])
    return x.shape[0], x.shape[1]


def _long_target(t: Tensor) -> None:
    if t.dtype.name != "int64":
        raise RuntimeError(f"expected scalar type Long but found {t.dtype.scalar_type}")


def _in_range(t: Tensor, low: int, high: int, message: str) -> None:
    """Eagerly: every target in [low, high) (torch's check of the values)."""
    if t.is_traced or t.numel() == 0:
        return
    values = t.concrete
    if values.min() < low or values.max() >= high:
        raise RuntimeError(message)


def _check_multi_margin(x: Tensor, t: Tensor, w: Tensor | None) -> tuple[int, int]:
    frames, classes = _frames("multi_margin_loss", x)
    if t.ndim > 1 or t.numel() != frames:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to "
                           f"the number of input samples (batch size). Expected target size "
                           f"[{frames}], but got {list(t.shape)}. Input has shape "
                           f"{list(x.shape)}.")
    if w is not None and w.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got "
                           f"{list(w.shape)}")
    _long_target(t)
    if w is not None and w.dtype is not x.dtype:
        raise RuntimeError(f"expected scalar type {x.dtype.scalar_type} but found "
                           f"{w.dtype.scalar_type}")
    floating(x, "multi_margin_loss_cpu_kernel")
    _in_range(t, 0, classes, "target out of range")
    return frames, classes


def multi_margin_loss(input, target, p: int = 1, margin: float = 1.0, weight=None,  # noqa: A002
                      size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """For each sample, the mean over the other classes d of max(0, margin - x[y] + x[d])^p
    (times weight[y]); p is 1 or 2."""
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and as_tensor(weight).ndim != 1:
        raise ValueError("weight must be one-dimensional")
    x, t = as_tensor(input), as_tensor(target)
    w = None if weight is None else as_tensor(weight)
    frames, classes = _check_multi_margin(x, t, w)
    rows = t.reshape(frames, 1)
    others = ne(arange(classes).reshape(1, classes), rows)
    scale = None if w is None else gather_along(w, t.reshape(frames), 0).reshape(frames, 1)
    shape = (frames,) if reduction == "none" and t.ndim > 0 else ()

    def body(a):
        table = a.reshape(frames, classes)
        z = (margin - gather_along(table, rows, 1)) + table
        h = where(gt(z, 0.0), z if p == 1 else z * z, 0.0)
        h = where(others, h if scale is None else h * scale, 0.0)
        per_sample = sum(h, 1) / classes
        if reduction == "none":
            return per_sample.reshape(shape)
        total = sum(per_sample)
        return total / frames if reduction == "mean" else total.reshape(shape)

    def rule(g, out, ins):
        # torch's kernel: where z = margin - x[i, y] + x[i, d] > 0 for a class d other than
        # the target y, dx[i, d] = c (p = 1) or 2 c z (p = 2), times weight[y]; dx[i, y] is
        # minus their sum; all times the output's gradient. c = 1 / classes (/ frames for
        # the mean), in the input's dtype. (Re-running body would cost ~3x as many ops.)
        table = ins[0].reshape(frames, classes)
        z = (margin - gather_along(table, rows, 1)) + table
        c = 1.0 / (frames * classes) if reduction == "mean" else 1.0 / classes
        h = gt(z, 0.0).to(z.dtype) * c if p == 1 else where(gt(z, 0.0), z * (2.0 * c), 0.0)
        h = where(others, h if scale is None else h * scale, 0.0)
        dx = where(others, h, -sum(h, 1, keepdim=True))
        dx = dx * (g.reshape(frames, 1) if reduction == "none" else g)
        return (dx.reshape(ins[0].shape),)
    return composite("MultiMarginLossBackward0", body, [x], rule, uses_out=False)


# ---------------------------------------------------------------- multilabel margin

def _check_multilabel(x: Tensor, t: Tensor) -> tuple[int, int]:
    frames, classes = _frames("multilabel_margin_loss", x)
    fits = (t.ndim <= 1 and t.numel() == classes) if x.ndim <= 1 else \
        (t.ndim == 2 and tuple(t.shape) == (frames, classes))
    if not fits:
        raise RuntimeError(f"inconsistent target size: {list(t.shape)} for input of size: "
                           f"{list(x.shape)}")
    _long_target(t)
    floating(x, "multilabel_margin_loss_forward_out_frame")
    _in_range(t, -1, classes, "argument #2 'target' is out of range")
    return frames, classes


def multilabel_margin_loss(input, target, size_average=None, reduce=None,  # noqa: A002
                           reduction: str = "mean") -> Tensor:
    """For each sample, the sum over its target classes j (those listed before the first -1)
    and its non-target classes d of max(0, 1 - (x[j] - x[d])), over the class count."""
    reduction = _reduction(size_average, reduce, reduction)
    x, t = as_tensor(input), as_tensor(target)
    frames, classes = _check_multilabel(x, t)
    labels = t.reshape(frames, classes)
    listed = eq(cumsum(lt(labels, 0).to(labels.dtype), 1), 0)            # before the first -1
    safe = where(listed, labels, 0)
    hits = logical_and(eq(safe.reshape(frames, classes, 1), arange(classes)),
                       listed.reshape(frames, classes, 1))
    others = logical_not(gt(sum(hits.to(labels.dtype), 1), 0)).reshape(frames, 1, classes)
    pairs = logical_and(listed.reshape(frames, classes, 1), others)
    shape = (frames,) if reduction == "none" and t.ndim > 1 else ()

    def body(a):
        table = a.reshape(frames, classes)
        z = (1.0 - gather_along(table, safe, 1)).reshape(frames, classes, 1) + \
            table.reshape(frames, 1, classes)
        per_sample = sum(where(logical_and(pairs, gt(z, 0.0)), z, 0.0), (1, 2)) / classes
        if reduction == "none":
            return per_sample.reshape(shape)
        total = sum(per_sample)
        return total / frames if reduction == "mean" else total.reshape(shape)
    return composite("MultilabelMarginLossBackward0", body, [x])
