"""Normalization in ``torch.nn.functional``: ``layer_norm``, ``batch_norm`` (training and
evaluation, running statistics updated in place), ``normalize`` and ``cosine_similarity``.

Layer: front end (torch.nn mirror). Input: tensors and torch's arguments. Output: tensors built
from primitives; layer_norm and batch_norm show torch's ``NativeLayerNormBackward0`` /
``NativeBatchNormBackward0``, with backward rules recomputed from the inputs (so they can be
differentiated again). Inside ``@symgrad.compile``, batch_norm in training mode updates running
statistics only when they are traced too (passed as arguments): it refuses to write a traced
value into a buffer created outside the compiled function. It must not read or write tensors'
arrays.
"""

from __future__ import annotations

import math

from ... import dtypes
from ...errors import TracerValueError
from ...frontend.core import grad_mode, sources
from ...frontend.core.apply import as_tensor
from ...frontend.functions.basic import abs, amax, clamp_min, composite, mean, norm, rsqrt, sum
from ...frontend.functions.keywords import write_out
from ...frontend.core.tensor import Tensor, size_text
from ...ops.registry import broadcast_shapes


def _sum_over(t: Tensor, axes: tuple) -> Tensor:
    """``t`` summed over ``axes`` (none: ``t`` itself; torch's sum over () sums everything)."""
    return sum(t, axes) if axes else t


def _standardized(a: Tensor, axes: tuple, eps: float) -> tuple[Tensor, Tensor]:
    """(x - mean) * rstd and rstd = 1 / sqrt(var + eps), the (biased) moments over ``axes``."""
    centered = a - mean(a, axes, keepdim=True)
    rstd = rsqrt(mean(centered * centered, axes, keepdim=True) + eps)
    return centered * rstd, rstd


def _affine(xhat: Tensor, w: Tensor | None, b: Tensor | None) -> Tensor:
    out = xhat if w is None else xhat * w
    return out if b is None else out + b


def _normalized_backward(g: Tensor, xhat: Tensor, rstd: Tensor, w: Tensor | None,
                         axes: tuple) -> Tensor:
    """The input's cotangent of standardizing over ``axes`` (the moments' own too)."""
    gw = g if w is None else g * w
    return rstd * (gw - mean(gw, axes, keepdim=True) - xhat * mean(gw * xhat, axes,
                                                                    keepdim=True))


def _params(weight, bias, dtype) -> list:
    return [None if p is None else as_tensor(p, dtype) for p in (weight, bias)]


def layer_norm(input, normalized_shape, weight=None, bias=None,  # noqa: A002
               eps: float = 1e-5) -> Tensor:
    """Standardize over the last ``len(normalized_shape)`` dims, then scale and shift."""
    x = as_tensor(input)
    shape = (normalized_shape,) if isinstance(normalized_shape, int) \
        else tuple(normalized_shape)
    k = len(shape)
    if k == 0 or x.ndim < k or tuple(x.shape[x.ndim - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{list(x.shape)}")
    w, b = _params(weight, bias, x.dtype)
    for name, p in (("weight", w), ("bias", b)):
        if p is not None and p.shape != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(p.shape)} and normalized_shape = "
                               f"{list(shape)}")
    axes = tuple(range(x.ndim - k, x.ndim))
    lead = tuple(range(x.ndim - k))
    has = [p is not None for p in (w, b)]

    def unpack(ins):
        rest = iter(ins[1:])
        return ins[0], (next(rest) if has[0] else None), (next(rest) if has[1] else None)

    def body(*ins):
        a, wt, bs = unpack(ins)
        return _affine(_standardized(a, axes, eps)[0], wt, bs)

    def rule(g, out, ins):
        a, wt, bs = unpack(ins)
        xhat, rstd = _standardized(a, axes, eps)
        grads = [_normalized_backward(g, xhat, rstd, wt, axes)]
        if wt is not None:
            grads.append(_sum_over(g * xhat, lead))
        if bs is not None:
            grads.append(_sum_over(g, lead))
        return tuple(grads)
    inputs = [x] + [p for p in (w, b) if p is not None]
    return composite("NativeLayerNormBackward0", body, inputs, rule, uses_out=False,
                     pure=True)


# ---------------------------------------------------------------- batch norm

def _channel(p: Tensor | None, ndim: int) -> Tensor | None:
    """A per-channel (C,) tensor shaped to broadcast along dim 1 of an (N, C, ...) input."""
    return None if p is None else p.reshape((p.shape[0],) + (1,) * (ndim - 2))


def _check_batch_norm(x: Tensor, stats: list, params: list, training: bool) -> None:
    if x.ndim < 2:
        raise ValueError(f"expected 2D or more input (got {x.ndim}D input)")
    channels = x.shape[1]
    for name, t in zip(("running_mean", "running_var", "weight", "bias"), stats + params):
        if t is not None and t.shape != (channels,):
            raise RuntimeError(f"{name} should contain {channels} elements not "
                               f"{t.numel()}")
    if training and math.prod(x.shape) // channels == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size_text(x.shape)}")
    if not training and (stats[0] is None or stats[1] is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")


def batch_norm(input, running_mean, running_var, weight=None, bias=None,  # noqa: A002
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Standardize each channel (dim 1) of an (N, C, ...) input with the batch's moments
    (``training``; the running statistics, if given, move towards them by ``momentum``, the
    variance unbiased) or with the running statistics, then scale and shift."""
    x = as_tensor(input)
    w, b = _params(weight, bias, x.dtype)
    stats = [None if s is None else as_tensor(s) for s in (running_mean, running_var)]
    _check_batch_norm(x, stats, [w, b], training)
    axes = (0,) + tuple(range(2, x.ndim))
    has = [p is not None for p in (w, b)]

    def unpack(ins):
        rest = iter(ins[1:])
        wt = _channel(next(rest), x.ndim) if has[0] else None
        return ins[0], wt, (_channel(next(rest), x.ndim) if has[1] else None)

    # what the rule reads: the running statistics in eval mode only (in training they are
    # updated in place after this, and the rule must not hold them: attach_function checks
    # the tensors a rule holds for in-place changes, as torch checks what it saves)
    running = None if training else stats

    def moments(a):
        if running is None:
            return _standardized(a, axes, eps)
        rstd = _channel(rsqrt(running[1] + eps), x.ndim)
        return (a - _channel(running[0], x.ndim)) * rstd, rstd

    def body(*ins):
        a, wt, bs = unpack(ins)
        return _affine(moments(a)[0], wt, bs)

    def rule(g, out, ins):
        a, wt, bs = unpack(ins)
        xhat, rstd = moments(a)
        dx = _normalized_backward(g, xhat, rstd, wt, axes) if training else \
            g * rstd * (1.0 if wt is None else wt)
        grads = [dx]
        if wt is not None:
            grads.append(sum(g * xhat, axes))
        if bs is not None:
            grads.append(sum(g, axes))
        return tuple(grads)
    out = composite("NativeBatchNormBackward0", body,
                    [x] + [p for p in (w, b) if p is not None], rule, uses_out=False)
    if training and stats[0] is not None:
        _update_running(x, stats, axes, momentum)
    return out


def check_running_stats(x: Tensor, stats: list) -> None:
    """batch_norm's error where training would update, inside a compiled function, running
    statistics created outside it (the module calls it before its counter's update too)."""
    rec = sources.current()
    for s in stats:
        if x.is_traced and s is not None and not s.is_traced and s._trace is not rec:
            raise TracerValueError(
                "batch_norm in training mode inside @symgrad.compile would write a traced "
                "value into a running statistic created outside the compiled function "
                f"(shape {tuple(s.shape)}); compiled code cannot update it. Pass the running "
                "statistics as arguments and return them, or call model.eval() first.")


def _update_running(x: Tensor, stats: list, axes: tuple, momentum: float) -> None:
    """running = (1 - momentum) * running + momentum * batch moment (the variance unbiased),
    in place and unrecorded, as torch's batch norm does."""
    check_running_stats(x, stats)
    n = math.prod(x.shape) // x.shape[1]
    with grad_mode.no_grad():
        batch_mean = mean(x, axes)
        centered = x - _channel(batch_mean, x.ndim)
        unbiased = sum(centered * centered, axes) / float(n - 1)
        for s, value in zip(stats, (batch_mean, unbiased)):
            if s is not None:
                s.copy_(momentum * value + (1.0 - momentum) * s)


# ---------------------------------------------------------------- vectors

def _pnorm(x: Tensor, p: float, dim) -> Tensor:
    """The p-norm along ``dim``, kept: the front end's norm for p in (1, 2, inf), else
    (sum |x|^p)^(1/p)."""
    if p in (1, 2, math.inf):
        return norm(x, p, dim, keepdim=True)
    if p == -math.inf:
        return -amax(-abs(x), dim, keepdim=True)
    if p == 0:   # the count of nonzeros (no gradient), as torch's vector_norm
        return x.norm(0, dim, keepdim=True)
    return sum(abs(x) ** p, dim, keepdim=True) ** (1.0 / p)


def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12,  # noqa: A002
              out=None) -> Tensor:
    """x / max(||x||_p, eps) along ``dim``."""
    x = as_tensor(input)
    result = x / clamp_min(_pnorm(x, p, dim), eps).expand_as(x)
    return result if out is None else write_out(out, result)


def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """sum((x1 / ||x1||) * (x2 / ||x2||)) along ``dim``, the inputs broadcast together; like
    torch, each norm is clamped at ``eps`` without recording it (its gradient is the norm's)."""
    a, b = (v if v.dtype.is_floating else v.to(dtypes.get_default_dtype())
            for v in (as_tensor(x1), as_tensor(x2)))
    if a.dtype is not b.dtype:
        a, b = a.to(dtypes.float64), b.to(dtypes.float64)
    shape = broadcast_shapes(tuple(a.shape), tuple(b.shape))
    a, b = a.expand(shape), b.expand(shape)

    def clamped(v):
        n = norm(v, 2, dim, keepdim=True)
        fixed = n.detach()
        return n + (clamp_min(fixed, eps) - fixed)
    return sum((a / clamped(a)) * (b / clamped(b)), dim)
