"""Tensor factories (torch's names): zeros, ones, full, arange, rand, randn, *_like, seeding.

Layer: front end. Input: sizes, fill values, dtypes. Output: new eager leaf tensors. Inside a
traced function they become constants of the graph (random ones are drawn once, at trace time).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from .tensor import Tensor, tensor

_rng = np.random.default_rng()


def manual_seed(seed: int) -> None:
    """Seed symgrad's random factories (rand, randn, ...)."""
    global _rng
    _rng = np.random.default_rng(int(seed))


def _sizes(size: tuple) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _make(value: np.ndarray, dtype, requires_grad: bool, default=dtypes.DEFAULT_FLOAT) -> Tensor:
    dt = dtypes.as_dtype(dtype) if dtype is not None else default
    return tensor(value, dtype=dt, requires_grad=requires_grad)


def zeros(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return _make(np.zeros(_sizes(size)), dtype, requires_grad)


def ones(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return _make(np.ones(_sizes(size)), dtype, requires_grad)


def full(size, fill_value, *, dtype=None, requires_grad: bool = False) -> Tensor:
    default = dtypes.scalar_dtype(fill_value)
    return _make(np.full(_sizes((size,)), fill_value), dtype, requires_grad, default)


def arange(start, end=None, step=1, *, dtype=None, requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    values = np.arange(start, end, step)
    is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
    default = dtypes.int64 if is_int else dtypes.DEFAULT_FLOAT
    return _make(values, dtype, requires_grad, default)


def rand(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return _make(_rng.random(_sizes(size)), dtype, requires_grad)


def randn(*size, dtype=None, requires_grad: bool = False) -> Tensor:
    return _make(_rng.standard_normal(_sizes(size)), dtype, requires_grad)


def _like(x: Tensor, dtype):
    return x.shape, (dtype if dtype is not None else x.dtype)


def zeros_like(x: Tensor, *, dtype=None, requires_grad: bool = False) -> Tensor:
    shape, dt = _like(x, dtype)
    return zeros(shape, dtype=dt, requires_grad=requires_grad)


def ones_like(x: Tensor, *, dtype=None, requires_grad: bool = False) -> Tensor:
    shape, dt = _like(x, dtype)
    return ones(shape, dtype=dt, requires_grad=requires_grad)


def full_like(x: Tensor, fill_value, *, dtype=None, requires_grad: bool = False) -> Tensor:
    shape, dt = _like(x, dtype)
    return full(shape, fill_value, dtype=dt, requires_grad=requires_grad)


def randn_like(x: Tensor, *, dtype=None, requires_grad: bool = False) -> Tensor:
    shape, dt = _like(x, dtype)
    return randn(shape, dtype=dt, requires_grad=requires_grad)


def rand_like(x: Tensor, *, dtype=None, requires_grad: bool = False) -> Tensor:
    shape, dt = _like(x, dtype)
    return rand(shape, dtype=dt, requires_grad=requires_grad)
