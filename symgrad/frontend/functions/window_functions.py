"""torch's window functions: ``hann_window hamming_window blackman_window bartlett_window
kaiser_window``.

Layer: front end (functions, factories). Input: a window length, ``periodic`` (the window of
length + 1 without its last value), the shape parameters, ``dtype`` (floating; the default
dtype if none), ``device``, ``requires_grad``. Output: a 1-d tensor computed as torch's
factories compute it, op by op in the dtype (``arange(n) * (2 pi / (n - 1))``, ``cos``,
``* -beta + alpha``...; torch's in-place ``mul_``/``add_`` round each number to the dtype
first, float16 too), so that its values round as torch's; lengths 0 and 1 give ``[]``
and ``[1]``.
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from ..core.tensor import Tensor
from . import basic as F
from .creation import arange, ones
from .shapes import cat
from ...ops import bessel


_C_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}


def _window(name: str, length, periodic, dtype, requires_grad: bool, body) -> Tensor:
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type(length).__name__}")
    if length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={length}")
    dt = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    if dt.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for "
                                  f"'{dt.scalar_type}'")
    if not dt.is_floating:
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                           f"{_C_NAMES.get(dt.name, dt.name)}, device=cpu, "
                           f"layout=Strided (default), requires_grad=false (default), "
                           f"pinned_memory=false, memory_format=(nullopt))")
    if length <= 1:
        out = ones(length, dtype=dt)
    else:
        n = length + 1 if periodic else length
        out = body(arange(n, dtype=dt), n, lambda v: float(np.asarray(v, dt.np)))
        out = (out[: n - 1] if periodic else out).detach()
    out.requires_grad_(requires_grad)
    return out


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype=None, layout=None, device=None,
                   pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """``alpha - beta * cos(2 pi k / (N - 1))``."""
    def body(k, n, r):
        return F.cos(k * r(2.0 * math.pi / (n - 1))) * r(-beta) + r(alpha)
    return _window("hamming_window", window_length, periodic, dtype, requires_grad, body)


def hann_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                device=None, pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """``0.5 - 0.5 * cos(2 pi k / (N - 1))`` (torch's hamming with alpha = beta = 0.5)."""
    def body(k, n, r):
        return F.cos(k * r(2.0 * math.pi / (n - 1))) * -0.5 + 0.5
    return _window("hann_window", window_length, periodic, dtype, requires_grad, body)


def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                    device=None, pin_memory: bool = False,
                    requires_grad: bool = False) -> Tensor:
    """``0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))``, in torch's order."""
    def body(k, n, r):
        w = k * r(math.pi / (n - 1))
        return F.cos(w * 4) * r(0.08) - F.cos(w * 2) * 0.5 + r(0.42)
    return _window("blackman_window", window_length, periodic, dtype, requires_grad, body)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None,
                    device=None, pin_memory: bool = False,
                    requires_grad: bool = False) -> Tensor:
    """``2k / (N - 1)`` rising, then ``2 - 2k / (N - 1)`` from the middle on."""
    def body(k, n, r):
        w = k * r(2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        return cat([w[:half], w[half:] * -1 + 2])
    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, body)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *,
                  dtype=None, layout=None, device=None, pin_memory: bool = False,
                  requires_grad: bool = False) -> Tensor:
    """``I0(beta sqrt(1 - ((k - a) / a)^2)) / I0(beta)``, a = (N - 1) / 2: one kernel in
    torch, computing in float (float16, float32) or double and rounding once, as here (I0
    itself from double, rounded to that precision: within an ulp or two of torch's)."""
    def body(k, n, r):
        op = np.float64 if k.dtype.itemsize == 8 else np.float32
        a, b = op((n - 1) / 2.0), op(beta)
        x = b * np.sqrt(np.abs(op(1) - ((np.arange(n, dtype=op) - a) / a) ** op(2)))
        ratio = bessel.i0(x.astype(np.float64)).astype(op) / op(bessel.i0(np.float64(b)))
        return Tensor(np.asarray(ratio, k.dtype.np), None)
    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, body)


__all__ = ["hamming_window", "hann_window", "blackman_window", "bartlett_window",
           "kaiser_window"]
