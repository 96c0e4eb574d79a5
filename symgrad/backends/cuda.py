"""``torch.backends.cuda`` without CUDA: cuBLAS flags and attention-kernel switches, kept.

Layer: front end (torch.backends mirror). ``is_built()`` is False. ``matmul`` holds torch's
cuBLAS flags with its defaults (``allow_tf32`` reads and writes the float32 matmul precision,
as in torch; the reduced-precision reductions True) and refuses unknown ones as torch does.
The scaled-dot-product-attention switches (``enable_flash_sdp``...) are remembered and
reported; ``sdp_kernel`` is their deprecated context manager (torch's warning). None of them
changes what symgrad computes.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator

from . import precision


def is_built() -> bool:
    return False


class cuBLASModule:  # noqa: N801  (torch's name)
    """``torch.backends.cuda.matmul``."""

    _FLAGS = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction",
              "allow_fp16_accumulation")

    def __init__(self) -> None:
        object.__setattr__(self, "_flags", dict.fromkeys(self._FLAGS[:2], True)
                           | {"allow_fp16_accumulation": False})

    def __getattr__(self, name: str):
        if name == "allow_tf32":
            return precision.get_float32_matmul_precision() != "highest"
        flags = object.__getattribute__(self, "_flags")
        if name in flags:
            return flags[name]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name: str, value) -> None:
        if name == "allow_tf32":
            precision.set_float32_matmul_precision("high" if value else "highest")
        elif name in self._flags:
            self._flags[name] = value
        else:
            raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()
_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def flash_sdp_enabled() -> bool:
    return _sdp["flash"]


def mem_efficient_sdp_enabled() -> bool:
    return _sdp["mem_efficient"]


def math_sdp_enabled() -> bool:
    return _sdp["math"]


def cudnn_sdp_enabled() -> bool:
    return _sdp["cudnn"]


def enable_flash_sdp(enabled: bool) -> None:
    _sdp["flash"] = enabled


def enable_mem_efficient_sdp(enabled: bool) -> None:
    _sdp["mem_efficient"] = enabled


def enable_math_sdp(enabled: bool) -> None:
    _sdp["math"] = enabled


def enable_cudnn_sdp(enabled: bool) -> None:
    _sdp["cudnn"] = enabled


@contextlib.contextmanager
def sdp_kernel(enable_flash: bool = True, enable_math: bool = True,
               enable_mem_efficient: bool = True, enable_cudnn: bool = True) -> Iterator[dict]:
    """The attention switches set for the block, then restored (deprecated in torch)."""
    warnings.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context "
                  "manager will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the "
                  "new context manager, with updated signature.", FutureWarning, stacklevel=3)
    before = dict(_sdp)
    _sdp.update(flash=enable_flash, math=enable_math, mem_efficient=enable_mem_efficient,
                cudnn=enable_cudnn)
    try:
        yield {}
    finally:
        _sdp.update(before)
