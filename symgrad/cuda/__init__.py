"""``torch.cuda`` as a CPU-only build of torch answers it: there is no CUDA device.

Layer: front end (the torch API surface; imports only the base and its own ``amp``). Programs
ask ``torch.cuda.is_available()`` to choose their device: here it is False, so they pick the
CPU. Seeding functions are accepted and do nothing, as in torch without a GPU; the memory
counters are 0; what needs a device (its name, properties, streams, setting it) raises
torch's "Torch not compiled with CUDA enabled". ``torch.cuda.amp`` is ``amp`` (deprecated
spellings of ``torch.amp``'s autocast and GradScaler, with torch's warnings).
"""

from __future__ import annotations

from ..devices import check, device as _device
from . import amp  # noqa: F401


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def get_arch_list() -> list:
    return []


def manual_seed(seed: int) -> None:
    """No GPU generator to seed (torch silently ignores this without CUDA)."""


def manual_seed_all(seed: int) -> None:
    """No GPU generators to seed."""


def seed() -> None:
    """No GPU generator to seed."""


def seed_all() -> None:
    """No GPU generators to seed."""


def empty_cache() -> None:
    """No GPU memory to release."""


def memory_allocated(device=None) -> int:
    return 0


max_memory_allocated = memory_reserved = max_memory_reserved = memory_allocated


def memory_stats(device=None) -> dict:
    return {}


def _no_cuda(*args, **kwargs):
    check("cuda")   # raises torch's "not compiled with CUDA" error


current_device = synchronize = init = get_device_name = get_device_properties = _no_cuda
get_device_capability = mem_get_info = ipc_collect = initial_seed = get_rng_state = _no_cuda
get_rng_state_all = current_stream = default_stream = reset_peak_memory_stats = _no_cuda
reset_max_memory_allocated = memory_summary = _no_cuda


def set_device(where) -> None:
    if isinstance(where, str) or isinstance(where, _device):
        d = _device(where)
        if d.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {d}")
    check("cuda")


def set_rng_state(new_state, device="cuda") -> None:
    """No GPU generator: torch accepts and drops the state without CUDA."""


set_rng_state_all = set_rng_state


class device:  # noqa: N801  (torch's name)
    """``with torch.cuda.device(i):``; only ``-1`` (no device) or None can be entered."""

    def __init__(self, device) -> None:
        self.idx = -1 if device is None else device

    def __enter__(self) -> None:
        if self.idx != -1:
            raise RuntimeError("PyTorch was compiled without CUDA support")

    def __exit__(self, *exc) -> bool:
        return False


class Stream:
    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("torch.cuda.Stream requires CUDA support")


class Event:
    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("Tried to instantiate dummy base class Event")
