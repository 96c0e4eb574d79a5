"""Python numbers converted to a tensor's dtype, with torch's checks: which numbers a checked
conversion refuses (``fill_``, ``full``, ``masked_fill``, ``clamp``, ``torch.tensor(...,
dtype=)``: c10's ``overflows``), the dtype torch infers for a list holding 0-d tensors, and
the numbers such tensors in a list stand for.

Layer: front end core (below ``tensor``, which uses it). Input: numbers, arrays of them,
nested lists; dtypes. Output: nothing or torch's RuntimeError; a dtype. (An operand of
arithmetic is not checked: torch casts it, wrapping as C does; ``apply.scalar``.)
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes

# how torch's messages from its kernels spell the C++ types
_C_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
            "int64": "int64_t", "float16": "c10::Half", "float32": "float", "float64": "double"}


def c_name(dtype: dtypes.DType) -> str:
    return _C_NAMES.get(dtype.name, dtype.cpp_name)


def _limits(dtype: dtypes.DType) -> tuple:
    if dtype.is_integer:
        info = np.iinfo(dtype.np)
    else:
        info = np.finfo(dtype.np)
    return float(info.min), float(info.max)


def overflows(values, dtype: dtypes.DType) -> bool:
    """c10's ``overflows``: whether a number (or any of an array of them) is out of
    ``dtype``'s range. Integers into an unsigned type may be as low as minus its maximum (they
    wrap, two's complement: -1 is 255 in uint8); floating numbers into an integer type must lie
    within its range (NaN and infinities do not); infinities and NaN fit a floating type."""
    if not (dtype.is_integer or dtype.is_floating) or dtype is dtypes.float64:
        return False
    arr = np.asarray(values)
    if arr.size == 0 or arr.dtype.kind not in "iuf":
        return False
    low, high = _limits(dtype)
    if arr.dtype.kind == "f":
        if dtype.is_floating:
            arr = arr[np.isfinite(arr)]
            if arr.size == 0:
                return False
        elif np.isnan(arr).any():
            return True
    elif not dtype.is_signed and dtype.is_integer:
        low = -high
    lo, hi = float(arr.min()), float(arr.max())
    return lo < low or hi > high


def check_fits(values, dtype: dtypes.DType, spelled: str | None = None) -> None:
    """torch's RuntimeError if ``overflows(values, dtype)``; ``spelled``: the type's name in
    the message (default: the C++ name torch's kernels give)."""
    if overflows(values, dtype):
        raise RuntimeError(f"value cannot be converted to type {spelled or c_name(dtype)} "
                           f"without overflow")


def list_dtype(data) -> dtypes.DType | None:
    """The dtype torch infers for a list of numbers some of which are 0-d tensors (their
    dtypes and the numbers' kinds promoted: ``[float64 tensor, 2.0]`` is float64), or None
    when it holds no tensor."""
    found = None
    tensors = False
    for item in data:
        if isinstance(getattr(item, "dtype", None), dtypes.DType):
            kind, tensors = item.dtype, True
        elif isinstance(item, (list, tuple)):
            kind = list_dtype(item)
            if kind is None:
                kind = _number_kind(item)
            else:
                tensors = True
        else:
            kind = _number_kind(item)
        if kind is not None:
            found = kind if found is None else dtypes.promote_types(found, kind)
    return found if tensors else None


def _number_kind(item) -> dtypes.DType | None:
    if isinstance(item, (list, tuple)):
        kinds = [k for k in map(_number_kind, item) if k is not None]
        return None if not kinds else _promoted(kinds)
    if isinstance(item, bool):
        return dtypes.bool_
    if isinstance(item, int):
        return dtypes.int64
    if isinstance(item, float):
        return dtypes.DEFAULT_FLOAT
    return None


def _promoted(kinds: list) -> dtypes.DType:
    out = kinds[0]
    for k in kinds[1:]:
        out = dtypes.promote_types(out, k)
    return out


def list_depth(data) -> float:
    """How many list levels ``data`` nests (along its first elements); infinite if ``data``
    is not a list."""
    depth = 0
    while isinstance(data, (list, tuple)):
        depth += 1
        if not data:
            break
        data = data[0]
    return depth or math.inf


def scalars_of(data):
    """``data`` with each tensor in its lists as the number it holds (torch's ValueError for
    a tensor of more than one element)."""
    if isinstance(data, (list, tuple)):
        return [scalars_of(d) for d in data]
    if hasattr(data, "__array__") and not isinstance(data, np.ndarray):
        value = np.asarray(data)
        if value.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return value.reshape(())
    return data
