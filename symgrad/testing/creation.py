"""``torch.testing.make_tensor``: a tensor of a shape and dtype filled with random test values.

Layer: front end (torch.testing mirror). Input: a shape, a dtype, a device (the CPU) and
torch's options (``low``, ``high``, ``requires_grad``, ``noncontiguous``, ``exclude_zero``).
Output: the tensor torch makes after the same ``manual_seed``: integers and bools from
``randint`` over ``[low, high)`` (defaults -9..10, bool 0..2, unsigned 0..10), floats from
``uniform_`` over ``[low, high)`` (default -9..9; a range wider than the dtype's largest value
drawn at half width and doubled), with torch's checks and messages. A noncontiguous request
draws twice the last dimension and keeps every other element, as torch does, so the values
are torch's too.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

from .. import dtypes
from ..devices import check as check_device
from ..frontend.core.tensor import Tensor
from ..frontend.functions.creation import empty
from ..frontend.random.sampling import randint


def _interval(dtype: dtypes.DType) -> tuple:
    """(lowest inclusive, highest exclusive, default low, default high) of ``dtype``."""
    if dtype.is_bool:
        return 0, 2, 0, 2
    if dtype.is_integer:
        info = dtypes.iinfo(dtype)
        return (info.min, info.max + (1 if dtype is not dtypes.int64 else 0),
                0 if dtype.kind == "uint" else -9, 10)
    info = dtypes.finfo(dtype)
    return info.min, info.max, -9, 9


def _low_high(low, high, dtype: dtypes.DType) -> tuple:
    """The drawing interval: the defaults filled in, checked and clamped as torch does."""
    lowest, highest, default_low, default_high = _interval(dtype)
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and dtype.is_floating:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                      "complex types is deprecated since 2.1 and will be removed in 2.3. Use "
                      "`torch.full(...)` instead.", FutureWarning, stacklevel=3)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, "
                         f"{high}), but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if not dtype.is_floating:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad: bool = False,
                noncontiguous: bool = False, exclude_zero: bool = False,
                memory_format=None) -> Tensor:
    """A ``shape`` tensor of ``dtype`` with values drawn uniformly from ``[low, high)``."""
    check_device(device)
    dtype = dtypes.as_dtype(dtype)
    if len(shape) == 1 and isinstance(shape[0], Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got noncontiguous={noncontiguous} and "
                         f"memory_format={memory_format}")
    if requires_grad and not dtype.is_floating:
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    low, high = _low_high(low, high, dtype)
    if dtype.is_floating:
        out = empty(shape, dtype=dtype)
        if high - low >= dtypes.finfo(dtype).max:
            out.uniform_(low / 2, high / 2).mul_(2)
        else:
            out.uniform_(low, high)
    else:
        out = randint(low, high, shape, dtype=dtype)
    if noncontiguous:
        out = out[..., 1::2]
    if exclude_zero:
        out[out == 0] = dtypes.finfo(dtype).tiny if dtype.is_floating else 1
    if dtype.is_floating:
        out.requires_grad = requires_grad
    return out
