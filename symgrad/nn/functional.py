"""symgrad.nn.functional: the torch.nn.functional mirror (activations and losses).

Layer: front end (``symgrad/nn`` sits at the top of the package so that it reads like
``torch.nn``; it imports only the front end and below). Input: tensors. Output: tensors built
from primitives. Each loss shows torch's grad_fn and has a backward rule written from primitives
that is exact at kinks and stable at extremes (the derivative of the composed forward is not:
e.g. relu/abs kinks at 0 in BCE-with-logits).
"""

from __future__ import annotations

from ..dtypes import int64
from ..frontend.apply import as_tensor
from ..frontend.functional import (abs, clamp, composite, exp, gather_along, log,  # noqa: F401
                                   log1p, log_softmax, mean, relu, sigmoid, softmax, softplus,
                                   sum, tanh, where)
from ..frontend.shapes import squeeze, unsqueeze
from ..frontend.tensor import Tensor

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return sum(loss)
    return loss


def _scale(g: Tensor, like: Tensor, reduction: str):
    """The per-element cotangent of a reduced loss."""
    if reduction == "none":
        return g
    g = g.expand(like.shape) if like.ndim else g
    return g / float(like.numel()) if reduction == "mean" else g


def _same_shape(name: str, input: Tensor, target: Tensor) -> None:
    if input.shape != target.shape:
        raise ValueError(f"{name}: target size ({tuple(target.shape)}) must be the same as "
                         f"input size ({tuple(input.shape)})")


def binary_cross_entropy_with_logits(input, target, weight=None, reduction: str = "mean",
                                     pos_weight=None) -> Tensor:
    """mean(max(x, 0) - x*y + log1p(exp(-|x|))): stable at +-1000; gradient sigmoid(x) - y."""
    x, y = as_tensor(input), as_tensor(target, input.dtype if isinstance(input, Tensor) else None)
    _check_reduction(reduction)
    _same_shape("binary_cross_entropy_with_logits", x, y)
    w = None if weight is None else as_tensor(weight)
    pw = None if pos_weight is None else as_tensor(pos_weight)

    def elementwise(a, b):
        sp_neg = relu(-a) + log1p(exp(-abs(a)))          # softplus(-x), exactly and stably
        log_w = 1.0 if pw is None else (pw - 1.0) * b + 1.0
        out = (1.0 - b) * a + log_w * sp_neg
        return out if w is None else out * w

    def rule(g, out, ins):
        a, b = ins
        g = _scale(g, a, reduction)
        if pw is None:
            da = sigmoid(a) - b
        else:
            log_w = (pw - 1.0) * b + 1.0
            da = (1.0 - b) - log_w * sigmoid(-a)
        db = -a if pw is None else -a + (pw - 1.0) * (relu(-a) + log1p(exp(-abs(a))))
        if w is not None:
            da, db = da * w, db * w
        return g * da, g * db
    return composite("BinaryCrossEntropyWithLogitsBackward0",
                     lambda a, b: _reduce(elementwise(a, b), reduction), [x, y], rule)


def binary_cross_entropy(input, target, weight=None, reduction: str = "mean") -> Tensor:
    """-(y log p + (1-y) log(1-p)) with torch's clamp of each log at -100."""
    p, y = as_tensor(input), as_tensor(target, input.dtype if isinstance(input, Tensor) else None)
    _check_reduction(reduction)
    _same_shape("binary_cross_entropy", p, y)
    w = None if weight is None else as_tensor(weight)

    def body(a, b):
        out = -(b * clamp(log(a), min=-100.0) + (1.0 - b) * clamp(log(1.0 - a), min=-100.0))
        return _reduce(out if w is None else out * w, reduction)

    def rule(g, out, ins):
        a, b = ins
        g = _scale(g, a, reduction)
        denom = clamp((1.0 - a) * a, min=1e-12)          # torch's EPSILON
        da = g * (a - b) / denom
        db = g * (log(1.0 - a) - log(a))
        if w is not None:
            da, db = da * w, db * w
        return da, db
    return composite("BinaryCrossEntropyBackward0", body, [p, y], rule)


def mse_loss(input, target, reduction: str = "mean") -> Tensor:
    a, b = as_tensor(input), as_tensor(target)
    _check_reduction(reduction)

    def rule(g, out, ins):
        x, y = ins
        d = _scale(g, x - y, reduction) * (x - y) * 2.0
        return d, -d
    return composite("MseLossBackward0", lambda x, y: _reduce((x - y) * (x - y), reduction),
                     [a, b], rule)


def nll_loss(input, target, weight=None, ignore_index: int = -100,
             reduction: str = "mean") -> Tensor:
    """Negative log likelihood of integer class targets: input (N, C) or (C,), target (N,)."""
    logp, t = as_tensor(input), as_tensor(target)
    _check_reduction(reduction)
    if t.dtype is not int64:
        raise RuntimeError(f"expected scalar type Long but found {t.dtype.name} (nll_loss "
                           f"targets are class indices)")
    if logp.ndim not in (1, 2):
        raise NotImplementedError(f"nll_loss: input must be (C,) or (N, C), got shape "
                                  f"{tuple(logp.shape)}")
    batched = logp.ndim == 2
    if batched and (t.ndim != 1 or t.shape[0] != logp.shape[0]):
        raise ValueError(f"Expected input batch_size ({logp.shape[0]}) to match target "
                         f"batch_size ({t.shape[0] if t.ndim else 1}).")
    keep = t != ignore_index
    safe = where(keep, t, 0)
    w = None if weight is None else as_tensor(weight, logp.dtype)

    def body(lp):
        if batched:
            picked = squeeze(gather_along(lp, unsqueeze(safe, 1), 1), 1)
        else:
            picked = gather_along(lp, unsqueeze(safe, 0), 0).reshape(())
        wt = keep.to(lp.dtype) if w is None else gather_along(w, safe, 0) * keep.to(lp.dtype) \
            if batched else gather_along(w, safe.reshape(1), 0).reshape(()) * keep.to(lp.dtype)
        losses = -picked * wt
        if reduction == "none":
            return losses
        total = sum(losses)
        return total / sum(wt) if reduction == "mean" else total
    return composite("NllLossBackward0", body, [logp])


def cross_entropy(input, target, weight=None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over dim 1 then nll_loss (class targets), or soft targets (probabilities)."""
    x, t = as_tensor(input), as_tensor(target)
    if label_smoothing:
        raise NotImplementedError("cross_entropy: label_smoothing is not supported yet")
    dim = 1 if x.ndim >= 2 else 0
    logp = log_softmax(x, dim)
    if t.dtype.is_floating:
        _same_shape("cross_entropy", x, t)
        losses = -sum(t * logp if weight is None else t * logp * as_tensor(weight), dim)
        return _reduce(losses, reduction)
    return nll_loss(logp, t, weight, ignore_index, reduction)
