"""symgrad.nn.init: torch.nn.init's initializers, drawing from the generator as torch's do.

Layer: front end (``symgrad/nn`` reads like ``torch.nn``; it imports only the front end and
below). Input: a tensor to fill in place, the initializer's parameters, ``generator=``. Output:
the same tensor, refilled under ``no_grad`` (so a parameter that requires grad can be filled).
The draws are torch 2.13's, call for call: after ``manual_seed(s)`` a layer initialized here
holds the numbers torch's would, e.g. ``nn.Linear``'s ``kaiming_uniform_(w, a=sqrt(5))`` then
``uniform_(b, -bound, bound)``.

Complex tensors as torch's: the uniform and normal initializers fill both parts (torch's
complex ``uniform_``/``normal_``); ``orthogonal_`` and ``trunc_normal_`` draw their first
samples, then raise torch's errors (its ``sign`` and comparisons refuse complex numbers).

Not bit for bit: ``orthogonal_`` (its QR factorization is NumPy's LAPACK, not torch's: the
same draws, values equal to float rounding), and the rarely taken branch of
``trunc_normal_`` for a narrow window (probability mass <= 0.3), whose acceptance test
compares with NumPy's ``log``: a sample lands on the other side of the test only if the two
``log``s differ in the last bit right at the boundary.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..frontend.random import args as A, kernels as K
from ..frontend.core.grad_mode import no_grad
from ..frontend.functions.inplace import copy_ as _copy, fill_ as _fill
from ..frontend.random.inplace import normal_ as _normal, uniform_ as _uniform
from ..frontend.random.sampling import randperm as _randperm
from ..frontend.core.tensor import Tensor, tensor as _tensor

__all__ = ["calculate_gain", "constant_", "dirac_", "eye_", "kaiming_normal_",
           "kaiming_uniform_", "normal_", "ones_", "orthogonal_", "sparse_", "trunc_normal_",
           "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_"]

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d")


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity: 1 for linear layers and sigmoid, 5/3 for
    tanh, sqrt(2) for relu, sqrt(2 / (1 + slope**2)) for leaky_relu, 3/4 for selu."""
    if nonlinearity in _LINEAR or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight of shape (out, in, *kernel): in and out times the
    kernel's size."""
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         f"dimensions (got shape {tuple(tensor.shape)})")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    """fan_in or fan_out, as ``mode`` says."""
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with samples of the uniform distribution on [a, b)."""
    with no_grad():
        return _uniform(tensor, a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with samples of the normal distribution N(mean, std**2)."""
    with no_grad():
        return _normal(tensor, mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    with no_grad():
        return _fill(tensor, val)


def ones_(tensor: Tensor) -> Tensor:
    """Fill with ones."""
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with zeros."""
    return constant_(tensor, 0.0)


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-D tensor with the identity (ones on the diagonal, zeros elsewhere)."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return _copy(tensor, _tensor(np.eye(*tensor.shape), dtype=tensor.dtype))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-D convolution weight (out, in, *kernel) with the identity: zeros
    but a one at the kernel's centre of channel pair (g * out_per_group + d, d), for each of
    ``groups`` groups and each d below min(out_per_group, in)."""
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if tensor.shape[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = tensor.shape[0] // groups
    centre = tuple(size // 2 for size in tensor.shape[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, tensor.shape[1])):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """Fill a 2-D tensor with N(0, std**2) samples, then zero ceil(sparsity * rows) of each
    column's entries: the first ones of a ``randperm(rows)`` per column, column by column.
    As torch's, the normals come from ``generator`` and the permutations from the default
    generator."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with no_grad():
        _normal(tensor, 0, std, generator=generator)
        for col in range(cols):
            tensor[_randperm(rows)[:zeros], col] = 0
    return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot's uniform initialization: U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot's normal initialization: N(0, std**2), std = gain * sqrt(2 / (fan_in +
    fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    """He's standard deviation gain / sqrt(fan); None (with torch's warning) for a tensor
    without elements."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return None
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """He's uniform initialization: U(-bound, bound), bound = sqrt(3) * gain / sqrt(fan)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """He's normal initialization: N(0, std**2), std = gain / sqrt(fan)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0, std, generator)


def _norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator=None) -> Tensor:
    """Fill with samples of N(mean, std**2) restricted to [a, b], as torch 2.13 draws them:
    normal samples redrawn (the whole tensor per round) where outside [a, b] when the window
    holds more than 0.3 of the mass, else uniform candidates on [a, b] accepted with
    probability pdf / peak (module docstring)."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    gen = A.generator(generator)
    with no_grad():
        wide = _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std) > 0.3
        if tensor.dtype.is_complex:
            _trunc_complex(tensor, mean, std, a, b, gen, wide)
        if wide:
            return _trunc_by_normals(tensor, mean, std, a, b, gen)
        return _trunc_by_rejection(tensor, mean, std, a, b, gen)


def _trunc_complex(tensor, mean, std, a, b, gen, wide: bool) -> None:
    """torch's ``trunc_normal_`` of a complex tensor: its first samples are drawn (complex,
    into ``tensor``; and the acceptance uniforms for a narrow window) before a comparison of
    complex numbers raises."""
    if wide:
        _normal(tensor, mean, std, generator=gen)
    else:
        _uniform(tensor, a, b, generator=gen)
        _uniform(Tensor(np.empty_like(tensor._value), None), generator=gen)
    raise A.not_implemented("lt_cpu" if wide else "gt_cpu", tensor.dtype)


def _like(tensor: Tensor, sample) -> np.ndarray:
    """``sample(n, contiguous)`` drawn in ``tensor``'s memory order, as an array of its
    shape and dtype (``torch.empty_like(tensor)`` filled in place)."""
    order = A.memory_order(tensor)
    values = A.in_layout(np.asarray(sample(tensor.numel(), order is None)), order)
    return values.astype(tensor.dtype.np).reshape(tensor.shape)


def _trunc_by_normals(tensor, mean, std, a, b, gen) -> Tensor:
    lo, hi = (tensor.dtype.np.type(v) for v in (a, b))
    double = tensor.dtype.np == np.float64
    _normal(tensor, mean, std, generator=gen)
    result = tensor._value
    while True:
        outside = (result < lo) | (result > hi)
        if not outside.any():
            break
        result = np.where(outside, _like(tensor, lambda n, c: K.normal(
            gen, n, double, mean, std, c)), result)
    if result is not tensor._value:
        _copy(tensor, Tensor(result, None))
    return tensor


def _trunc_by_rejection(tensor, mean, std, a, b, gen) -> Tensor:
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    dt = tensor.dtype.np.type
    double = dt is np.float64

    def log_pdf(x):
        return (((x - dt(mean)) / dt(std)) ** 2 * dt(-0.5) - dt(log_peak)).astype(dt)

    def accept_log_u():
        return np.log(_like(tensor, lambda n, c: K.uniform(gen, n, double, 0.0, 1.0)))
    _uniform(tensor, a, b, generator=gen)
    result = tensor._value
    pending = accept_log_u() > log_pdf(result)
    if not pending.any():
        return tensor
    while True:
        candidates = _like(tensor, lambda n, c: K.uniform(gen, n, double, a, b))
        result = np.where(pending, candidates, result)
        pending = np.where(pending, accept_log_u() > log_pdf(candidates), pending)
        if not pending.any():
            break
    return _copy(tensor, Tensor(result, None))


def orthogonal_(tensor: Tensor, gain: float = 1, generator=None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix: Q of the QR factorization of a normal sample of
    shape (rows, numel / rows), signs fixed by R's diagonal, times ``gain``."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    gen = A.generator(generator)
    if tensor.dtype.is_complex:   # torch draws the complex sample, then its sign() refuses
        _normal(Tensor(np.empty((rows, cols), tensor.dtype.np), None), generator=gen)
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex "
                                  "numbers. Please use torch.sgn instead.")
    flat = K.normal(gen, rows * cols, tensor.dtype.np == np.float64, 0.0, 1.0)
    flat = flat.astype(tensor.dtype.np).reshape(rows, cols)
    q, r = np.linalg.qr(flat.T if rows < cols else flat)
    q = q * np.sign(np.diag(r))
    q = (q.T if rows < cols else q).astype(tensor.dtype.np)
    with no_grad():
        return _copy(tensor, Tensor((q * tensor.dtype.np.type(gain)).reshape(tensor.shape),
                                    None))
