"""``torch.autocast`` on a machine with no accelerator, for a compiler without bfloat16.

Layer: front end (torch.amp mirror). Input: a device type, a dtype, ``enabled``. Output: a
context manager (and decorator) that answers ``is_autocast_enabled`` as torch does and
changes no computation:

- ``device_type="cuda"`` (or another accelerator): torch warns that the device is not
  available and disables autocast; so does this, and ops run as they would without it,
  exactly as in torch.
- ``device_type="cpu"``: torch runs matrix products and convolutions in bfloat16 (its default
  CPU autocast dtype) or float16. symgrad has no bfloat16 and keeps its ops' dtypes: the block
  runs in float32, and a warning says that its results differ from torch's (torch's come out
  in the lower precision). A dtype CPU autocast does not support disables it, with torch's
  warning.

``custom_fwd``/``custom_bwd`` (decorators of a custom ``Function``'s forward and backward)
return the function as it is: there is no autocast state for them to set.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable

from .. import dtypes
from ..devices import device as _device

_enabled: dict[str, bool] = {}   # the device types whose autocast is on (the stack's top)
_LOW_PRECISION = ("bfloat16", "float16")


def is_autocast_available(device_type: str) -> bool:
    _device(device_type)   # torch's error for an unknown device type
    return True


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for ``device_type`` (torch's default: ``"cuda"``)."""
    if device_type is not None:
        _device(device_type)
    return _enabled.get(device_type or "cuda", False)


def _dtype_name(dtype) -> str:
    return dtype.name if isinstance(dtype, dtypes.DType) else str(dtype).rpartition(".")[2]


def _cpu_enabled(dtype) -> bool:
    name = "bfloat16" if dtype is None else _dtype_name(dtype)
    if name not in _LOW_PRECISION:
        warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                      "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                      "torch.float16 currently.", stacklevel=3)
        return False
    warnings.warn(f"symgrad does not compute in {name}: ops under torch.autocast('cpu') run "
                  f"in their own dtype (float32), so their results differ from torch's in the "
                  f"low bits and keep float32 as their dtype.", stacklevel=3)
    return True


class autocast:  # noqa: N801  (torch's name)
    """``torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)``."""

    def __init__(self, device_type: str, dtype=None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = _device(device_type).type
        self.fast_dtype, self._cache_enabled = dtype, cache_enabled
        if enabled and self.device == "cuda":
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                          stacklevel=2)
            enabled = False
        elif enabled and self.device == "cpu":
            enabled = _cpu_enabled(dtype)
        elif enabled:
            enabled = False   # no other accelerator either
        self._enabled, self._previous = enabled, []

    def __enter__(self):
        self._previous.append(_enabled.get(self.device, False))
        _enabled[self.device] = self._enabled
        return self

    def __exit__(self, *exc) -> bool:
        _enabled[self.device] = self._previous.pop()
        return False

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def run(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return run


def custom_fwd(fwd=None, *, device_type: str | None = None, cast_inputs=None):
    """A custom Function's forward, as it is (there is no autocast state to set)."""
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)
    return fwd


def custom_bwd(bwd=None, *, device_type: str | None = None):
    """A custom Function's backward, as it is."""
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)
    return bwd
