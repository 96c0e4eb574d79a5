"""Classification losses of ``torch.nn.functional``: ``nll_loss`` and ``cross_entropy``.

Layer: front end (torch.nn mirror). Input: scores or log-probabilities (C,), (N, C) or
(N, C, d1, ...), and class-index targets (int64, with ``ignore_index``) or class-probability
targets (floating, the input's shape). Output: the loss tensor built from primitives; nll_loss
shows torch's ``NllLossBackward0``; cross_entropy is log_softmax then nll_loss, plus torch's
label-smoothing term. A class index out of range is an IndexError (the gather's, with its own
message), eagerly and in compiled code. It must not read or write tensors' arrays.
"""

from __future__ import annotations

import math

from ...dtypes import int64, uint8
from ...frontend.core.apply import apply, as_tensor
from ...frontend.functions.basic import composite, gather_along, log_softmax, sum, where
from ...frontend.functions.manipulation import movedim
from ...frontend.functions.shapes import squeeze, unsqueeze
from ...frontend.core.tensor import Tensor
from .loss import check_reduction, legacy_reduction, same_shape


def _check_targets(logp: Tensor, t: Tensor) -> None:
    """torch's checks of class-index targets: dtype and shape (an index out of range raises
    the gather's IndexError, eagerly and in compiled code)."""
    if t.dtype is not int64 and t.dtype is not uint8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{t.dtype.scalar_type}")
    if logp.ndim == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if logp.ndim >= 2 and (t.ndim == 0 or t.shape[0] != logp.shape[0]):
        raise ValueError(f"Expected input batch_size ({logp.shape[0]}) to match target "
                         f"batch_size ({t.shape[0] if t.ndim else 1}).")
    if logp.ndim > 2 and t.shape[1:] != logp.shape[2:]:
        raise RuntimeError(f"Expected target size {[logp.shape[0]] + list(logp.shape[2:])}, "
                           f"got {list(t.shape)}")


def _class_weight(weight, logp: Tensor, classes: int, same_dtype: bool = True) -> Tensor | None:
    """The (C,) class weights; of the input's dtype for class-index targets (torch's error
    otherwise), promoting with it for class probabilities (``same_dtype=False``)."""
    if weight is None:
        return None
    w = as_tensor(weight) if isinstance(weight, Tensor) else as_tensor(weight, logp.dtype)
    if same_dtype and w.dtype is not logp.dtype:
        raise RuntimeError(f"expected scalar type {logp.dtype.scalar_type} but found "
                           f"{w.dtype.scalar_type}")
    if w.shape != (classes,):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes "
                           f"or no classes but got weight tensor of shape: {list(w.shape)}")
    return w


def nll_loss(input, target, weight=None, size_average=None,  # noqa: A002
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log likelihood of class-index targets: input (C,), (N, C) or (N, C, d1, ...);
    the mean divides by the total weight of the targets not ignored."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    logp, t = as_tensor(input), as_tensor(target)
    check_reduction(reduction)
    _check_targets(logp, t)
    t = t.long() if t.dtype is uint8 else t   # uint8 class indices too, as torch's
    w = _class_weight(weight, logp, logp.shape[1] if logp.ndim >= 2 else logp.shape[0])
    if logp.ndim <= 2:
        return _nll(logp, t, w, ignore_index, reduction)
    # torch's nll_loss2d: the classes moved last and the rest flattened; a "none" result is
    # shaped as the target (a view of it but for a 4-d input, as torch's)
    classes, square = logp.shape[1], logp.ndim == 4 and reduction == "none"

    def body(lp):
        flat = _nll(movedim(lp, 1, -1).reshape(-1, classes), t.reshape(-1), w, ignore_index,
                    reduction)
        return flat.reshape(t.shape) if square else flat
    out = composite("NllLoss2DBackward0", body, [logp], pure=True)
    return out.reshape(t.shape) if reduction == "none" and not square else out


def _nll(logp: Tensor, t: Tensor, w: Tensor | None, ignore_index: int,
         reduction: str) -> Tensor:
    """nll_loss of (C,) or (N, C) log-probabilities, as one ``NllLossBackward0``."""
    batched = logp.ndim == 2
    keep = t != ignore_index
    safe = where(keep, t, 0)

    def body(lp):
        if batched:
            picked = squeeze(gather_along(lp, unsqueeze(safe, 1), 1), 1)
        else:
            picked = gather_along(lp, unsqueeze(safe, 0), 0).reshape(())
        wt = _target_weights(lp, safe, keep, w, batched)
        losses = -picked * wt
        if reduction == "none":
            return losses
        total = sum(losses)
        return total / sum(wt) if reduction == "mean" else total

    def rule(g, out, ins):
        # d loss / d logp: -g * weight (over the weights' total for "mean") at each target's
        # class, zero elsewhere: one scatter (re-running body would cost ~4x as many ops).
        lp = ins[0]
        wt = _target_weights(lp, safe, keep, w, batched)
        coef = -g * wt if reduction != "mean" else (-g / sum(wt)) * wt
        if batched:
            return (apply("scatter_add", unsqueeze(coef, 1), unsqueeze(safe, 1), axis=1,
                          shape_to=tuple(lp.shape)),)
        return (apply("scatter_add", coef.reshape(1), safe.reshape(1), axis=0,
                      shape_to=tuple(lp.shape)),)
    return composite("NllLossBackward0", body, [logp], rule, uses_out=False, pure=True)


def _target_weights(lp: Tensor, safe: Tensor, keep: Tensor, w: Tensor | None,
                    batched: bool) -> Tensor:
    """Each sample's weight: its class's (1 without ``weight``), 0 where ignored."""
    kept = keep.to(lp.dtype)
    if w is None:
        return kept
    if batched:
        return gather_along(w, safe, 0) * kept
    return gather_along(w, safe.reshape(1), 0).reshape(()) * kept


def cross_entropy(input, target, weight=None, size_average=None,  # noqa: A002
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over the class dim (1, or 0 for a (C,) input), then nll_loss for class
    indices or -sum(target * log_softmax) for class probabilities; ``label_smoothing`` mixes
    in the uniform distribution as torch does."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing}")
    x, t = as_tensor(input), as_tensor(target)
    dim = 1 if x.ndim >= 2 else 0
    logp = log_softmax(x, dim)
    if t.dtype.is_floating and tuple(t.shape) == tuple(x.shape):    # class probabilities
        return _soft_targets(logp, t, weight, reduction, label_smoothing, dim)
    nll = nll_loss(logp, t, weight, ignore_index=ignore_index, reduction=reduction)
    t = t.long() if t.dtype is uint8 else t
    if not label_smoothing:
        return nll
    classes = x.shape[dim]
    smooth = _smoothing(logp, t, _class_weight(weight, logp, classes), ignore_index,
                        reduction, dim)
    return (1.0 - label_smoothing) * nll + smooth * (label_smoothing / classes)


def _along_class_dim(w: Tensor, logp: Tensor, dim: int) -> Tensor:
    """A (C,) weight shaped to broadcast along the class dim of ``logp``."""
    return w.reshape((w.shape[0],) + (1,) * (logp.ndim - dim - 1))


def _smoothing(logp: Tensor, t: Tensor, w: Tensor | None, ignore_index: int,
               reduction: str, dim: int) -> Tensor:
    """torch's label-smoothing term for class-index targets: -sum over classes of the
    (weighted) log-probabilities, 0 at ignored targets, reduced like nll_loss (the mean
    divides by the weight of the targets not ignored)."""
    keep = t != ignore_index
    per_sample = -sum(logp if w is None else logp * _along_class_dim(w, logp, dim), dim)
    per_sample = where(keep, per_sample, 0.0)
    if reduction == "none":
        return per_sample
    total = sum(per_sample)
    if reduction == "sum":
        return total
    if w is None:
        return total / sum(keep.to(logp.dtype))
    picked = gather_along(w, where(keep, t, 0).reshape(-1), 0)
    return total / sum(where(keep.reshape(-1), picked, 0.0))


def _soft_targets(logp: Tensor, t: Tensor, weight, reduction: str, label_smoothing: float,
                  dim: int) -> Tensor:
    """cross_entropy of class probabilities: -sum(target * log_softmax * weight), operands
    promoting as torch's; the mean divides by the number of samples (numel / C), not by the
    weights."""
    same_shape("cross_entropy", logp, t)
    classes = logp.shape[dim]
    if label_smoothing:
        t = t * (1.0 - label_smoothing) + label_smoothing / classes
    prod = logp * t
    if weight is not None:
        prod = prod * _along_class_dim(_class_weight(weight, logp, classes, False), logp, dim)
    if reduction == "none":
        return -sum(prod, dim)
    total = -sum(prod)
    if reduction == "sum":
        return total
    samples = math.prod(logp.shape) // classes if classes else 0
    # torch divides by a Scalar (DivBackward1); no samples: 0 / 0, NaN as in torch
    return apply("div", total, float(samples), _torch_name="DivBackward1")
