"""Regression and binary losses of ``torch.nn.functional``: mse, l1, smooth L1, Huber, KL
divergence, binary cross entropy (with logits), and the reduction helpers the losses share.

Layer: front end (the ``symgrad/nn`` mirror of torch.nn; imports only the front end and
below). Input: tensors (eager or traced) and torch's keyword arguments. Output: the loss
tensor, built from primitives through the front end's functions. Where torch shows one grad_fn
(``MseLossBackward0``, ``SmoothL1LossBackward0``...) the loss is a composite whose backward rule
is written from the same functions: exact at kinks (torch's side), stable at extremes, and
differentiable again. It must not read or write tensors' arrays.
"""

from __future__ import annotations

import warnings

from ...dims import as_count, same_shape as same_dims
from ...frontend.core.apply import as_tensor
from ...frontend.functions.basic import (abs, clamp, composite, exp, log, log1p, lt, mean, relu,
                                         sigmoid, sum, where)
from ...frontend.core.tensor import Tensor, size_text

_REDUCTIONS = ("mean", "sum", "none")


def check_reduction(reduction: str) -> None:
    """Raise torch's ValueError for a reduction other than 'mean', 'sum' and 'none'."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def legacy_reduction(size_average, reduce, reduction: str) -> str:
    """The reduction the deprecated ``size_average``/``reduce`` arguments ask for (torch's
    rule, with its warning); ``reduction`` when both are None."""
    if size_average is None and reduce is None:
        return reduction
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  "reduction='mean' instead." if size_average is not False or reduce is False
                  else "size_average and reduce args will be deprecated, please use "
                  "reduction='sum' instead.", UserWarning, stacklevel=3)
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "none" if not reduce else ("mean" if size_average else "sum")


def reduce_loss(loss: Tensor, reduction: str) -> Tensor:
    """The elementwise ``loss`` reduced as ``reduction`` says."""
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return sum(loss)
    return loss


def scale(g: Tensor, like: Tensor, reduction: str):
    """The per-element cotangent of a reduced loss."""
    if reduction == "none":
        return g
    g = g.expand(like.shape) if like.ndim else g
    return g / as_count(like.numel()) if reduction == "mean" else g


def same_shape(name: str, input: Tensor, target: Tensor) -> None:  # noqa: A002
    """The ValueError of losses whose target must have the input's shape."""
    if not same_dims(input.shape, target.shape):
        raise ValueError(f"{name}: target size ({tuple(target.shape)}) must be the same as "
                         f"input size ({tuple(input.shape)})")


def _pair(input, target) -> tuple[Tensor, Tensor]:  # noqa: A002
    """Input and target as tensors; torch's warning when they differ in shape (they are then
    broadcast together, which is rarely what was meant)."""
    x = as_tensor(input)
    y = as_tensor(target, None if isinstance(target, Tensor) else x.dtype)
    if not same_dims(x.shape, y.shape):
        warnings.warn(f"Using a target size ({size_text(y.shape)}) that is different to the "
                      f"input size ({size_text(x.shape)}). This will likely lead to incorrect "
                      f"results due to broadcasting. Please ensure they have the same size.",
                      UserWarning, stacklevel=3)
    return x, y


# ---------------------------------------------------------------- binary cross entropy

def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,  # noqa: A002
                                     reduce=None, reduction: str = "mean",
                                     pos_weight=None) -> Tensor:
    """mean(max(x, 0) - x*y + log1p(exp(-|x|))): stable at +-1000; gradient sigmoid(x) - y.
    The loss has the target's dtype (torch computes ``(1 - target).mul_(input)`` in place)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    x = as_tensor(input)
    y = as_tensor(target) if isinstance(target, Tensor) else as_tensor(target, x.dtype)
    check_reduction(reduction)
    same_shape("binary_cross_entropy_with_logits", x, y)
    w = None if weight is None else as_tensor(weight)
    pw = None if pos_weight is None else as_tensor(pos_weight)

    def elementwise(a, b):
        sp_neg = relu(-a) + log1p(exp(-abs(a)))          # -logsigmoid(x), exactly and stably
        if pw is not None:
            sp_neg = (((pw - 1.0) * b + 1.0) * sp_neg).to(a.dtype)
        out = (((1.0 - b) * a).to(b.dtype) + sp_neg).to(b.dtype)
        return out if w is None else (out * w).to(b.dtype)

    def rule(g, out, ins):
        a, b = ins
        g = scale(g, a, reduction)
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
                     lambda a, b: reduce_loss(elementwise(a, b), reduction), [x, y], rule,
                     pure=True)


def binary_cross_entropy(input, target, weight=None, size_average=None,  # noqa: A002
                         reduce=None, reduction: str = "mean") -> Tensor:
    """-(y log p + (1-y) log(1-p)) with torch's clamp of each log at -100; input and target
    of one dtype (torch's error otherwise), a weight multiplied in the input's dtype."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    p = as_tensor(input)
    y = as_tensor(target) if isinstance(target, Tensor) else as_tensor(target, p.dtype)
    check_reduction(reduction)
    same_shape("binary_cross_entropy", p, y)
    if p.dtype is not y.dtype:
        raise RuntimeError(f"Found dtype {y.dtype.scalar_type} but expected "
                           f"{p.dtype.scalar_type}")
    w = None if weight is None else as_tensor(weight)
    if p.concrete is not None and not ((p.concrete >= 0) & (p.concrete <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")   # NaN too

    def body(a, b):
        out = -(b * clamp(log(a), min=-100.0) + (1.0 - b) * clamp(log(1.0 - a), min=-100.0))
        return reduce_loss(out if w is None else (out * w).to(a.dtype), reduction)

    def rule(g, out, ins):
        a, b = ins
        g = scale(g, a, reduction)
        denom = clamp((1.0 - a) * a, min=1e-12)          # torch's EPSILON
        da = g * (a - b) / denom
        db = g * (log(1.0 - a) - log(a))
        if w is not None:
            da, db = da * w, db * w
        return da, db
    return composite("BinaryCrossEntropyBackward0", body, [p, y], rule, pure=True)


# ---------------------------------------------------------------- regression

def _weighted(losses: Tensor, weight, input: Tensor, reduction: str,  # noqa: A002
              by_weight: bool) -> Tensor:
    """torch's weighted regression losses: each element's loss times its weight; the mean
    divides by the sum of the weights (``by_weight``, mse and l1) or by the count (Huber)."""
    w = as_tensor(weight)
    if not same_dims(w.shape, input.shape):
        raise ValueError("Weights and input must have the same size.")
    losses = losses * w
    if reduction == "mean" and by_weight:
        return sum(losses) / sum(w)
    return reduce_loss(losses, reduction)


def mse_loss(input, target, size_average=None, reduce=None,  # noqa: A002
             reduction: str = "mean", weight=None) -> Tensor:
    """mean((input - target)^2); ``MseLossBackward0``."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    a, b = _pair(input, target)
    check_reduction(reduction)
    if weight is not None:
        return _weighted((a - b) * (a - b), weight, a, reduction, True)

    def rule(g, out, ins):
        x, y = ins
        d = scale(g, x - y, reduction) * (x - y) * 2.0
        return d, -d
    return composite("MseLossBackward0", lambda x, y: reduce_loss((x - y) * (x - y), reduction),
                     [a, b], rule, pure=True)


def l1_loss(input, target, size_average=None, reduce=None,  # noqa: A002
            reduction: str = "mean", weight=None) -> Tensor:
    """mean(|input - target|), built as torch builds it (its grad_fn is the reduction's, or
    ``AbsBackward0``); the gradient at a tie is 0, as sign(0) is."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    x, y = _pair(input, target)
    check_reduction(reduction)
    if weight is not None:
        return _weighted(abs(x - y), weight, x, reduction, True)
    return reduce_loss(abs(x - y), reduction)


def _piecewise_loss(name: str, x: Tensor, y: Tensor, reduction: str, width: float,
                    slope: float, quadratic: float, input_dtype: bool = False) -> Tensor:
    """quadratic * d^2 for |d| < width, else slope * (|d| - width / 2), d = x - y: smooth L1
    (quadratic = 1 / (2 beta), slope 1) and Huber (quadratic 1/2, slope delta) alike. The
    gradient is torch's: slope * sign(d) outside, 2 * quadratic * d inside. ``input_dtype``
    (Huber): the elementwise loss is computed in the promoted dtype and stored in the input's,
    and a backward with operands of two dtypes is torch's error."""
    def body(a, b):
        d = a - b
        z = abs(d)
        loss = where(lt(z, width), quadratic * d * d, slope * (z - 0.5 * width))
        return reduce_loss(loss.to(a.dtype) if input_dtype else loss, reduction)

    def rule(g, out, ins):
        if input_dtype and ins[0].dtype is not ins[1].dtype:
            raise RuntimeError(f"Found dtype {ins[1].dtype.scalar_type} but expected "
                               f"{ins[0].dtype.scalar_type}")
        d = ins[0] - ins[1]
        inner = 2.0 * quadratic * d
        grad = scale(g, d, reduction) * clamp(inner, min=-slope, max=slope)
        return grad, -grad
    return composite(name, body, [x, y], rule)


def smooth_l1_loss(input, target, size_average=None, reduce=None,  # noqa: A002
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """0.5 d^2 / beta where |d| < beta, else |d| - beta / 2; beta = 0 is the L1 loss."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    x, y = _pair(input, target)
    check_reduction(reduction)
    if beta == 0.0:
        return reduce_loss(abs(x - y), reduction)
    return _piecewise_loss("SmoothL1LossBackward0", x, y, reduction, beta, 1.0, 0.5 / beta)


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0,  # noqa: A002
               weight=None) -> Tensor:
    """0.5 d^2 where |d| < delta, else delta (|d| - delta / 2), in the input's dtype."""
    if weight is not None and not isinstance(weight, Tensor):   # torch reads weight.size()
        raise AttributeError(f"'{type(weight).__name__}' object has no attribute 'size'")
    if delta <= 0:
        raise RuntimeError(f"huber_loss does not support non-positive values for delta, got "
                           f"{delta}")
    x, y = _pair(input, target)
    check_reduction(reduction)
    if weight is not None:
        return _weighted(huber_loss(x, y, "none", delta), weight, x, reduction, False)
    return _piecewise_loss("HuberLossBackward0", x, y, reduction, delta, delta, 0.5, True)


def _xlogy_self(t: Tensor) -> Tensor:
    """t log t, 0 where t = 0 (torch's xlogy(t, t)), with a gradient free of 0 * inf."""
    zero = t == 0.0
    return where(zero, 0.0, t * log(where(zero, 1.0, t)))


def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean",  # noqa: A002
           log_target: bool = False) -> Tensor:
    """target * (log target - input) (``input`` holds log-probabilities; with ``log_target``
    the target does too); ``reduction='batchmean'`` divides the sum by the batch size."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns "
                      "with the KL div math definition.'mean' will be changed to behave the "
                      "same as 'batchmean' in the next major release.", UserWarning,
                      stacklevel=2)
    elif reduction != "batchmean":
        check_reduction(reduction)
    x = as_tensor(input)
    t = as_tensor(target, None if isinstance(target, Tensor) else x.dtype)
    losses = exp(t) * (t - x) if log_target else _xlogy_self(t) - t * x
    if reduction == "batchmean":
        return sum(losses) / x.shape[0] if x.ndim else sum(losses)
    return reduce_loss(losses, reduction)
