"""``torch.nn.functional.ctc_loss``: the connectionist temporal classification loss.

Layer: front end (torch.nn mirror). Input: log-probabilities (T, N, C) or unbatched (T, C),
targets padded (N, S) or concatenated (sum of the target lengths), and the input and target
lengths (int64 tensors or lists of ints), ``blank``, ``reduction``, ``zero_infinity``. Output:
the loss tensor with torch's grad_fn (``CtcLossBackward0``, then ``WhereBackward0`` with
``zero_infinity``, then the reduction's: the mean divides each loss by its target length,
at least 1, then averages). The forward (alpha) and backward (beta) recursions are torch's
CPU loops, run on the arrays in the input's dtype in torch's order of operations (log-sums of
at most three terms shifted by their maximum; the per-class sums of alpha * beta accumulated
in torch's order), with the C library's exp and log as torch's loops call them: the losses
and gradients are torch's bit for bit in float32 and float64 (the reductions to an ulp). It
is a dynamic program whose loops depend on the lengths and reads the arrays: it runs eagerly
only (inside ``@symgrad.compile`` it is an error), and its gradient, like torch's, is not
differentiable again (a constant times the incoming cotangent). The gradient with respect to
log_probs is torch's: exp(log_probs) minus the posterior occupancy of each class, which is
the gradient of the loss only once composed with log_softmax (how torch means it to be used).
A target outside [0, C) is an IndexError here (torch reads out of bounds).
"""

from __future__ import annotations

import math

import numpy as np

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import clamp, composite, eq, mean, sum, where
from .activation_more import floating
from .loss import check_reduction

_WHERE = "(while checking arguments for ctc_loss_allocate_outputs)"


def _lengths(name: str, lengths, batch: int) -> np.ndarray:
    """Lengths given as an integral tensor or a sequence of ints, one per sample."""
    if isinstance(lengths, Tensor):
        if not lengths.dtype.is_integer:
            raise RuntimeError(f"{name} must be integral")
        if lengths.is_traced:
            raise _traced()
        values = np.asarray(lengths.concrete, np.int64).reshape(-1)
    else:
        values = np.asarray(lengths, np.int64).reshape(-1)
    if values.shape[0] != batch:
        raise RuntimeError(f"{name} must be of size batch_size")
    return values


def _traced() -> RuntimeError:
    return RuntimeError("ctc_loss inside @symgrad.compile: its dynamic program runs eagerly "
                        "only (the lengths and targets decide its loops). Compute the loss "
                        "outside the compiled function.")


def _check_values(name: str, values: np.ndarray, most: int | None) -> None:
    for v in values:
        if v < 0:
            raise RuntimeError(f"Expected {name} to have value at least 0, but got value {v} "
                               f"{_WHERE}")
        if most is not None and v > most:
            raise RuntimeError(f"Expected {name} to have value at most {most}, but got value "
                               f"{v} {_WHERE}")


def _target_rows(targets: np.ndarray, target_lengths: np.ndarray, classes: int) -> list:
    """Each sample's target labels, from padded (N, S) or concatenated targets."""
    batch = target_lengths.shape[0]
    if targets.ndim not in (1, 2):
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional "
                           f"tensor for argument #2 'targets' {_WHERE}")
    _check_values("target_lengths", target_lengths, None)
    if targets.ndim == 1:
        total = int(target_lengths.sum())
        if targets.shape[0] != total:
            raise RuntimeError(f"Expected tensor to have size {total} at dimension 0, but got "
                               f"size {targets.shape[0]} for argument #2 'targets' {_WHERE}")
        starts = np.concatenate([[0], np.cumsum(target_lengths)[:-1]])
        rows = [targets[s:s + n] for s, n in zip(starts, target_lengths)]
    else:
        if targets.shape[0] != batch:
            raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got "
                               f"size {targets.shape[0]} for argument #2 'targets' {_WHERE}")
        longest = int(target_lengths.max()) if batch else 0
        if targets.shape[1] < longest:
            raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension "
                               f"1, but got size {targets.shape[1]} for argument #2 'targets' "
                               f"{_WHERE}")
        rows = [targets[b, :n] for b, n in enumerate(target_lengths)]
    for row in rows:
        bad = row[(row < 0) | (row >= classes)]
        if bad.size:
            raise IndexError(f"ctc_loss: target {int(bad[0])} is out of range for {classes} "
                             f"classes")
    return rows


# ---------------------------------------------------------------- torch's recursions

def _c_exp(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _c_log(v: float) -> float:
    if v > 0:
        return math.log(v)
    return -math.inf if v == 0 else math.nan


def _libm(fn, x) -> np.ndarray:
    """``fn`` as the C library computes it, in the array's dtype: torch's loops call
    ``std::exp``/``std::log`` (float32 ones correctly rounded, which float64 then rounding
    gives; NumPy's own float32 and float64 exp and log differ from them by an ulp)."""
    x = np.asarray(x)
    flat = np.fromiter(map(fn, x.astype(np.float64).ravel().tolist()), np.float64, x.size)
    return flat.reshape(x.shape).astype(x.dtype)


def _exp(x):
    return _libm(_c_exp, x)


def _log(x):
    return _libm(_c_log, x)


def _logadd3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """log(exp(a - m) + exp(b - m) + exp(c - m)) + m, m the maximum (0 if all are -inf)."""
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == -np.inf, m.dtype.type(0), m)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _log(_exp(a - m) + _exp(b - m) + _exp(c - m)) + m


def _shifted(row: np.ndarray, by: int, mask: np.ndarray | None = None) -> np.ndarray:
    """``row`` moved right (by > 0) or left (by < 0) by ``|by|``, -inf filling; -inf where
    ``mask`` is False."""
    out = np.full_like(row, -np.inf)
    if by > 0:
        out[..., by:] = row[..., :-by]
    else:
        out[..., :by] = row[..., -by:]
    return out if mask is None else np.where(mask, out, out.dtype.type(-np.inf))


def _alpha(lp: np.ndarray, labels: np.ndarray, length: int) -> tuple[np.ndarray, object]:
    """torch's forward variables (length, 2 S + 1) and the negative log likelihood."""
    span = labels.shape[0]
    neg = lp.dtype.type(-np.inf)
    alpha = np.full((max(length, 1), span), neg, lp.dtype)
    if length == 0:             # no frames: likelihood 1 of an empty target, else 0
        return alpha, lp.dtype.type(-0.0 if span == 1 else np.inf)
    alpha[0, 0] = lp[0, labels[0]]
    if span > 1:
        alpha[0, 1] = lp[0, labels[1]]
    skip = np.zeros(span, bool)
    skip[2:] = labels[2:] != labels[:-2]
    for t in range(1, length):
        prev = alpha[t - 1]
        alpha[t] = _logadd3(prev, _shifted(prev, 1), _shifted(prev, 2, skip)) + lp[t, labels]
    last = alpha[length - 1]
    tail = last[span - 2] if span > 1 else neg
    m = max(last[span - 1], tail)
    m = lp.dtype.type(0) if m == neg else m
    with np.errstate(divide="ignore"):
        return alpha, -(_log(_exp(last[span - 1] - m) + _exp(tail - m)) + m)


def _beta_collected(lp: np.ndarray, labels: np.ndarray, length: int,
                    alpha: np.ndarray) -> np.ndarray:
    """torch's backward variables, and per (t, class) the log-sum of alpha + beta over the
    extended-label positions of that class (accumulated as torch's loop does)."""
    span, neg = labels.shape[0], lp.dtype.type(-np.inf)
    collected = np.full(lp.shape, neg, lp.dtype)
    beta = np.full((length, span), neg, lp.dtype)
    beta[length - 1, span - 1] = lp[length - 1, labels[span - 1]]
    collected[length - 1, labels[span - 1]] = alpha[length - 1, span - 1] + beta[length - 1, -1]
    if span > 1:
        beta[length - 1, span - 2] = lp[length - 1, labels[span - 2]]
        collected[length - 1, labels[span - 2]] = alpha[length - 1, span - 2] + \
            beta[length - 1, span - 2]
    skip = np.zeros(span, bool)
    skip[:-2] = labels[:-2] != labels[2:]
    for t in range(length - 2, -1, -1):
        nxt = beta[t + 1]
        beta[t] = _logadd3(nxt, _shifted(nxt, -1), _shifted(nxt, -2, skip)) + lp[t, labels]
    both = alpha[:length - 1] + beta[:length - 1]
    for s in range(span - 1, -1, -1):
        cell = collected[:length - 1, labels[s]]
        m = np.maximum(cell, both[:, s])
        with np.errstate(invalid="ignore"):
            added = _log(_exp(cell - m) + _exp(both[:, s] - m)) + m
        collected[:length - 1, labels[s]] = np.where(cell == neg, both[:, s], added)
    return collected


def _extended(row: np.ndarray, blank: int) -> np.ndarray:
    """The target with a blank before, between and after its labels (2 S + 1)."""
    labels = np.full(2 * row.shape[0] + 1, blank, np.int64)
    labels[1::2] = row
    return labels


def _losses(lp: np.ndarray, labels: list, lengths: np.ndarray) -> tuple[np.ndarray, list]:
    nll = np.empty(lp.shape[1], lp.dtype)
    alphas = []
    for b, (row, n) in enumerate(zip(labels, lengths)):
        alpha, nll[b] = _alpha(lp[:, b, :], row, int(n))
        alphas.append(alpha)
    return nll, alphas


def _gradient(lp: np.ndarray, labels: list, lengths: np.ndarray, alphas: list,
              nll: np.ndarray, zero_infinity: bool) -> np.ndarray:
    """d nll_b / d lp for a unit cotangent: exp(lp) - exp(collected + nll - lp) over each
    sample's frames, 0 after them (and everywhere for an infinite loss with zero_infinity)."""
    grad = np.zeros_like(lp)
    for b, (row, n) in enumerate(zip(labels, lengths)):
        n = int(n)
        if n == 0 or (zero_infinity and nll[b] == np.inf):
            continue
        frames = lp[:n, b, :]
        collected = _beta_collected(frames, row, n, alphas[b])
        with np.errstate(invalid="ignore", over="ignore"):
            grad[:n, b, :] = _exp(frames) - _exp(collected + nll[b] - frames)
    return grad


def _not_twice(g, out, ins):
    raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """-log p(target | log_probs) summed over the alignments, per sample (module docstring)."""
    check_reduction(reduction)
    lp, t = as_tensor(log_probs), as_tensor(targets)
    if lp.is_traced or t.is_traced:
        raise _traced()
    batched = lp.ndim == 3
    lp3 = lp if batched else lp.unsqueeze(1)
    if lp3.ndim != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {lp3.ndim}-dimensional "
                           f"tensor for argument #1 'log_probs' {_WHERE}")
    floating(lp3, "ctc_loss_cpu")
    frames, batch, classes = lp3.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    in_lengths = _lengths("input_lengths", input_lengths, batch)
    out_lengths = _lengths("target_lengths", target_lengths, batch)
    target_values = np.asarray(t.concrete).astype(np.int64)
    rows = _target_rows(target_values if batched else target_values.reshape(1, -1),
                        out_lengths, classes)
    _check_values("input_lengths", in_lengths, frames)
    labels = [_extended(row, blank) for row in rows]
    saved = {}

    def body(a):
        saved["nll"], saved["alphas"] = _losses(np.asarray(a.concrete), labels, in_lengths)
        return as_tensor(saved["nll"])

    def rule(g, out, ins):
        grad = as_tensor(_gradient(np.asarray(ins[0].concrete), labels, in_lengths,
                                   saved["alphas"], saved["nll"], zero_infinity))
        return (composite("NotImplemented", lambda a, c: grad * c.reshape(1, batch, 1),
                          [ins[0], g], _not_twice),)
    loss = composite("CtcLossBackward0", body, [lp3], rule, uses_out=False)
    if zero_infinity:
        loss = where(eq(loss, np.inf), 0.0, loss)
    if reduction == "mean":
        return mean(loss / clamp(as_tensor(out_lengths).to(loss.dtype), min=1))
    if reduction == "sum":
        return sum(loss)
    return loss if batched else loss.squeeze(0)
