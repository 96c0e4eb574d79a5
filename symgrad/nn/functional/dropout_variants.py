"""The dropout variants of ``torch.nn.functional``: ``dropout1d``, ``dropout2d``,
``dropout3d`` (whole channels), ``alpha_dropout`` and ``feature_alpha_dropout`` (SELU's
self-normalizing dropout), and torch's ``feature_dropout`` and ``native_dropout``. Plain
``dropout`` is ``symgrad.frontend.random.sampling``'s.

Layer: front end (torch.nn mirror). Input: a tensor, p, training, inplace (torch's defaults:
alpha dropout does nothing unless ``training=True``). Output: torch's ``_dropout_impl``: a
noise tensor of the input's dtype, of the input's shape or (N, C, 1, ...) for the feature
variants, filled by ``bernoulli_(1 - p)`` with torch's generator (so after ``manual_seed`` the
same channels drop as in torch); then input * noise / (1 - p) (``MulBackward0``), or for the
alpha variants input * (noise * a) + b with a = 1 / sqrt((alpha^2 p + 1)(1 - p)) and
b = (noise - 1) * alpha a + alpha a p, rounded in the input's dtype as torch's kernels round
them (``AddBackward0``). p == 1 multiplies by zero. In training mode inside
``@symgrad.compile`` they refuse, as ``dropout`` does: the mask would be drawn once.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ...dtypes import bool_
from ...frontend.core.apply import apply, as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import composite
from ...frontend.functions.creation import empty
from ...frontend.random.args import refuse_dropout_trace

_ALPHA = 1.7580993408473766      # SELU's -scale * alpha: where a dropped unit is sent


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _noise(x: Tensor, p: float, feature: bool) -> np.ndarray:
    """torch's noise: ``bernoulli_(1 - p)`` of the input's dtype, per element or per
    (sample, channel)."""
    if feature:
        if x.ndim < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2)
    else:
        shape = tuple(x.shape)
    refuse_dropout_trace()
    return empty(*shape, dtype=x.dtype).bernoulli_(1 - p).numpy()


def _dropout_impl(x: Tensor, p: float, training: bool, inplace: bool, feature: bool,
                  alpha: bool) -> Tensor:
    """torch's ``_dropout_impl<feature, alpha, inplace>``."""
    _check_p(p)
    if p == 0 or not training or x.numel() == 0:
        return x
    if p == 1:
        zero = Tensor(np.zeros((), x.dtype.np), None)
        return x.mul_(zero) if inplace else apply("mul", x, zero)
    dt = x.dtype.np.type
    noise = _noise(x, p, feature)
    if not alpha:
        scale = Tensor(noise / dt(1 - p), None)
        return x.mul_(scale) if inplace else apply("mul", x, scale)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    shift = Tensor((noise - dt(1)) * dt(_ALPHA * a) + dt(_ALPHA * a * p), None)
    scale = Tensor(noise * dt(a), None)
    if inplace:
        return x.mul_(scale).add_(shift)
    return apply("add", apply("mul", x, scale), shift)


def _batched(x: Tensor, batched: bool, inplace: bool, run) -> Tensor:
    """``run`` on ``x`` with a batch dim added when it has none (and removed again)."""
    if batched:
        return run(x)
    if inplace:
        return run(x.unsqueeze_(0)).squeeze_(0)
    return run(x.unsqueeze(0)).squeeze(0)


def dropout1d(input, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L), each with probability ``p``; scale the rest
    by 1 / (1 - p)."""
    _check_p(p)
    x = as_tensor(input)
    if x.ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {x.ndim}D "
                           f"input. Note that dropout1d exists to provide channel-wise dropout "
                           f"on inputs with 1 spatial dimension, a channel dimension, and an "
                           f"optional batch dimension (i.e. 2D or 3D inputs).")
    return _batched(x, x.ndim == 3, inplace,
                    lambda t: _dropout_impl(t, p, training, inplace, True, False))


def dropout2d(input, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, H, W), each with probability ``p`` (a 3-D input is taken
    as (N, C, L), as torch does, with its warning)."""
    _check_p(p)
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {x.ndim}-D input to dropout2d, which is "
                      f"deprecated and will result in an error in a future release. To retain "
                      f"the behavior and silence this warning, please use dropout instead. "
                      f"Note that dropout2d exists to provide channel-wise dropout on inputs "
                      f"with 2 spatial dimensions, a channel dimension, and an optional batch "
                      f"dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if x.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                      "channel-wise 1D dropout behavior is desired - input is interpreted as "
                      "shape (N, C, L), where C is the channel dim. This behavior will change "
                      "in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
                      "dropout behavior, please switch to using dropout1d instead.",
                      stacklevel=2)
    return _dropout_impl(x, p, training, inplace, True, False)


def dropout3d(input, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W), each with probability ``p``."""
    _check_p(p)
    x = as_tensor(input)
    if x.ndim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {x.ndim}-D input to dropout3d, which is "
                      f"deprecated and will result in an error in a future release. To retain "
                      f"the behavior and silence this warning, please use dropout instead. "
                      f"Note that dropout3d exists to provide channel-wise dropout on inputs "
                      f"with 3 spatial dimensions, a channel dimension, and an optional batch "
                      f"dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    return _batched(x, x.ndim == 5, inplace,
                    lambda t: _dropout_impl(t, p, training, inplace, True, False))


def alpha_dropout(input, p: float = 0.5, training: bool = False,  # noqa: A002
                  inplace: bool = False) -> Tensor:
    """SELU's dropout: each element set to SELU's negative saturation with probability
    ``p``, then an affine map keeping zero mean and unit variance."""
    _check_p(p)
    return _dropout_impl(as_tensor(input), p, training, inplace, False, True)


def feature_alpha_dropout(input, p: float = 0.5, training: bool = False,  # noqa: A002
                          inplace: bool = False) -> Tensor:
    """``alpha_dropout`` of whole channels of (N, C, ...)."""
    _check_p(p)
    return _dropout_impl(as_tensor(input), p, training, inplace, True, True)


def feature_dropout(input, p: float = 0.5, training: bool = True,  # noqa: A002
                    inplace: bool = False) -> Tensor:
    """``torch.feature_dropout``: plain dropout of whole channels of (N, C, ...), what
    ``dropout1d/2d/3d`` run once they have checked the input's rank."""
    _check_p(p)
    return _dropout_impl(as_tensor(input), p, training, inplace, True, False)


def native_dropout(input, p: float, train) -> tuple:  # noqa: A002
    """``torch.native_dropout``: (output, mask). Training (``train`` True or None): a bool
    mask ``bernoulli_(1 - p)``, output = input * mask * scale with scale = 1 / (1 - p) (0 if
    p == 1), ``NativeDropoutBackward0`` (g * mask * scale, but g * mask for ``train=None``, as
    torch's derivative formula reads it); otherwise a copy and a mask of ones."""
    x = as_tensor(input)
    if train is not None and not train:
        mask = Tensor(np.ones(tuple(x.shape), bool), None)
        return composite("NativeDropoutBackward0", lambda t: t.clone(), [x],
                         lambda g, out, ins: (g,), saves=False, uses_out=False), mask
    if x.numel() == 0:
        return x, empty(*x.shape, dtype=x.dtype)
    keep = 1.0 - p
    scale = 0.0 if keep == 0 else 1.0 / keep
    refuse_dropout_trace()
    mask = empty(*x.shape, dtype=bool_).bernoulli_(keep)
    back = 1.0 if train is None else scale    # torch's backward formula: no scale for None
    out = composite("NativeDropoutBackward0", lambda t: t * mask * scale, [x],
                    lambda g, out, ins: (g * mask * back,), saves=False, uses_out=False)
    return out, mask
