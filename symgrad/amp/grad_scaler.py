"""``torch.amp.GradScaler``: loss scaling, torch's arithmetic, on the CPU.

Layer: front end (torch.amp mirror). Input: losses, an optimizer whose parameters have
gradients, torch's options. Output: what torch's scaler does:

- for ``device="cuda"`` (the default) torch finds no CUDA, warns and disables the scaler:
  ``scale(loss)`` is ``loss``, ``step(opt)`` is ``opt.step()``, ``update()`` does nothing,
  ``get_scale()`` is 1.0; this does the same, so mixed-precision training scripts run their
  float32 path unchanged;
- for ``device="cpu"`` it scales: ``scale`` multiplies by the float32 scale (2**16 at first),
  ``unscale_`` multiplies each gradient by the float32 reciprocal of the scale and notes any
  non-finite gradient, ``step`` skips the optimizer's step if one was found, ``update`` halves
  the scale after such a step and doubles it after ``growth_interval`` clean ones, as torch's
  kernels do, in float32. Scaling by powers of two is exact, so the parameters follow the
  unscaled training bit for bit unless a gradient overflows.
"""

from __future__ import annotations

import enum
import warnings
from typing import Any

import numpy as np

from .. import dtypes
from ..frontend.core import grad_mode
from ..frontend.core.tensor import Tensor
from ..frontend.functions.creation import full

_FIX = ("This may indicate your script did not use scaler.scale(loss or outputs) earlier in "
        "the iteration.")


class OptState(enum.Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _f32(x: float) -> float:
    return float(np.float32(x))


class GradScaler:
    """``GradScaler(device="cuda", init_scale=2.**16, growth_factor=2., backoff_factor=.5,
    growth_interval=2000, enabled=True)``; see the module."""

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device, self._enabled = device, enabled
        if device == "cuda" and enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", stacklevel=2)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale, self._scale = init_scale, None
            self._growth_factor, self._backoff_factor = growth_factor, backoff_factor
            self._growth_interval, self._growth_tracker = growth_interval, None
            self._init_growth = 0
            self._states: dict[int, dict] = {}

    # ------------------------------------------------------------ scaling
    def scale(self, outputs):
        """``outputs`` (a tensor, or an iterable of them) times the scale."""
        if not self._enabled:
            return outputs
        if self._scale is None:
            self._scale, self._growth_tracker = _f32(self._init_scale), self._init_growth
        factor = full((), self._scale, dtype=dtypes.float32)
        return self._times(outputs, factor)

    def _times(self, val, factor: Tensor):
        if isinstance(val, Tensor):
            return val * factor
        if isinstance(val, (list, tuple)):
            return type(val)(self._times(v, factor) for v in val)
        if hasattr(val, "__iter__"):
            return map(lambda v: self._times(v, factor), val)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _state(self, optimizer) -> dict:
        return self._states.setdefault(id(optimizer), {"stage": OptState.READY,
                                                       "found_inf": None})

    def _check_started(self, funcname: str) -> None:
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + _FIX)

    def unscale_(self, optimizer) -> None:
        """Divide ``optimizer``'s gradients by the scale (multiply by its reciprocal)."""
        if not self._enabled:
            return
        self._check_started("unscale_")
        state = self._state(optimizer)
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inverse = _f32(1.0 / float(self._scale))
        found = None
        with grad_mode.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if p.grad.dtype is dtypes.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    found = bool(found) or not bool(np.isfinite(p.grad.numpy()).all())
                    if inverse != 1.0:
                        p.grad.mul_(full((), inverse, dtype=dtypes.float32))
        state["found_inf"], state["stage"] = found, OptState.UNSCALED

    def step(self, optimizer, *args: Any, **kwargs: Any):
        """``optimizer.step()``, unless a gradient was not finite (then skipped)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        self._check_started("step")
        state = self._state(optimizer)
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if state["found_inf"] is None:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        result = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return result

    def update(self, new_scale: float | Tensor | None = None) -> None:
        """Back off after a step with non-finite gradients, grow after enough clean ones."""
        if not self._enabled:
            return
        self._check_started("update")
        if new_scale is not None:
            self._scale = _f32(new_scale if isinstance(new_scale, float) else new_scale.item())
        else:
            found = [s["found_inf"] for s in self._states.values() if s["found_inf"] is not None]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            self._grow_or_back_off(any(found))
        self._states = {}

    def _grow_or_back_off(self, found_inf: bool) -> None:
        if found_inf:
            self._scale, self._growth_tracker = _f32(self._scale * self._backoff_factor), 0
            return
        successful = self._growth_tracker + 1
        if successful == self._growth_interval:
            grown = _f32(self._scale * self._growth_factor)
            if np.isfinite(grown):
                self._scale = grown
            self._growth_tracker = 0
        else:
            self._growth_tracker = successful

    # ------------------------------------------------------------ settings and state
    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale

    def is_enabled(self) -> bool:
        return self._enabled

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def state_dict(self) -> dict:
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._init_growth if self._growth_tracker is None
                else self._growth_tracker}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale = _f32(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker = state_dict["_growth_tracker"]
