"""The normalizations of ``torch.nn.functional`` built on the basic ones: ``instance_norm``,
``rms_norm`` and ``local_response_norm``.

Layer: front end (torch.nn mirror). Input: tensors, eager or traced, and torch's arguments
(checked with torch's messages). Output: tensors composed as torch composes them:
``instance_norm`` is torch's reshape of (N, C, *S) to (1, N C, *S), a ``batch_norm`` with the
weight, bias and running statistics repeated N times, the running statistics written back as
the mean of their N updated copies, and a view back (``ViewBackward0``); ``rms_norm`` is
x * rsqrt(mean(x ** 2) + eps), times the weight (eps: the dtype's epsilon by default);
``local_response_norm`` divides by (k + alpha * the mean of squares over ``size`` neighbouring
channels) ** beta, the mean an ``avg_pool2d`` of the zero-padded squares. Inside
``@symgrad.compile`` instance_norm updates running statistics only when they are traced
(batch_norm's rule: updating ones made outside is refused; reading them, in evaluation, works).
"""

from __future__ import annotations

import numpy as np

from ...errors import TracerValueError
from ...frontend.core import sources
from ...frontend.core.apply import apply, as_tensor
from ...frontend.core.grad_mode import no_grad
from ...frontend.core.tensor import Tensor, size_text
from ...frontend.functions.basic import mean, rsqrt
from .linear import pad
from .normalization import batch_norm
from .pooling import avg_pool2d


def _repeated(t, times: int) -> Tensor | None:
    # (symgrad's repeat is a view of its input, torch's a copy: batch_norm writes into it)
    return None if t is None else as_tensor(t).repeat(times).clone()


def _refuse_outside_write(x: Tensor, *stats) -> None:
    """batch_norm's rule: compiled code cannot write a traced value into a running statistic
    created outside the compiled function."""
    rec = sources.current()
    for s in stats:
        if s is not None and x.is_traced and not s.is_traced and s._trace is not rec:
            raise TracerValueError(
                "instance_norm inside @symgrad.compile would write a traced value into a "
                f"running statistic created outside the compiled function (shape "
                f"{tuple(s.shape)}); compiled code cannot update it. Pass the running "
                "statistics as arguments and return them, or call model.eval() first (with "
                "track_running_stats=True).")


def instance_norm(input, running_mean=None, running_var=None, weight=None,  # noqa: A002
                  bias=None, use_input_stats: bool = True, momentum: float = 0.1,
                  eps: float = 1e-5) -> Tensor:
    """Standardize each (sample, channel) plane of (N, C, *S) over S, then scale and shift
    per channel; with running statistics, update them (``use_input_stats``) or use them."""
    x = as_tensor(input)
    if use_input_stats and int(np.prod(x.shape[2:])) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                         f"{size_text(x.shape)}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    if use_input_stats:
        _refuse_outside_write(x, running_mean, running_var)
    b, c = x.shape[0], x.shape[1]
    stats = [_repeated(s, b) for s in (running_mean, running_var)]
    out = batch_norm(x.reshape((1, b * c) + tuple(x.shape[2:])), stats[0], stats[1],
                     _repeated(weight, b), _repeated(bias, b), use_input_stats, momentum, eps)
    with no_grad():
        for given, copies in zip((running_mean, running_var), stats):
            # torch writes the copies' mean back even when they were only read (the same
            # values, to rounding); compiled code reading an outside buffer leaves it be
            if given is not None and not (copies.is_traced and not given.is_traced):
                given.copy_(mean(copies.reshape(b, c), 0))
    return apply("reshape", out, shape_to=tuple(x.shape), _torch_name="ViewBackward0")


def rms_norm(input, normalized_shape, weight=None, eps: float | None = None) -> Tensor:  # noqa: A002
    """x / sqrt(mean(x ** 2) + eps) over the last ``len(normalized_shape)`` dims, times
    ``weight``."""
    x = as_tensor(input)
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError(f"rms_norm(): argument 'normalized_shape' (position 2) must be tuple "
                        f"of ints, not {type(normalized_shape).__name__}")
    shape = tuple(int(n) for n in normalized_shape)
    k = len(shape)
    if k == 0 or x.ndim < k or tuple(x.shape[x.ndim - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size"
                           f"{list(x.shape)}")
    w = None if weight is None else as_tensor(weight)
    if w is not None and tuple(w.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {list(w.shape)} and normalized_shape = "
                           f"{list(shape)}")
    if eps is None:
        eps = float(np.finfo(x.dtype.np).eps) if x.dtype.is_floating else 1.1920928955078125e-07
    axes = tuple(range(x.ndim - 1, x.ndim - 1 - k, -1))
    result = x * rsqrt(mean(x * x, axes, keepdim=True) + eps)
    return result if w is None else result * w


def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75,  # noqa: A002
                        k: float = 1.0) -> Tensor:
    """x / (k + alpha * mean of x ** 2 over ``size`` neighbouring channels) ** beta, the
    neighbourhood of channel c being c - size // 2 .. c + (size - 1) // 2 (zero outside)."""
    x = as_tensor(input)
    if x.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {x.ndim} dimensions)")
    if x.numel() == 0:
        return x
    sizes = tuple(x.shape)
    # channels as the height of an (N, 1, C, rest) image: torch's avg_pool3d over (size, 1, 1)
    squares = (x * x).reshape(sizes[0], 1, sizes[1], -1)
    squares = pad(squares, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(squares, (size, 1), stride=1).reshape(sizes)
    return x / (div * alpha + k) ** beta
