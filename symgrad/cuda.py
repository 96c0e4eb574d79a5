"""``torch.cuda`` as a CPU-only build of torch answers it: there is no CUDA device.

Layer: front end (the torch API surface; imports only the base). Programs ask
``torch.cuda.is_available()`` to choose their device: here it is False, so they pick the CPU.
Seeding functions are accepted and do nothing, as in torch without a GPU.
"""

from __future__ import annotations

from .devices import check


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """No GPU generator to seed (torch silently ignores this without CUDA)."""


def manual_seed_all(seed: int) -> None:
    """No GPU generators to seed."""


def empty_cache() -> None:
    """No GPU memory to release."""


def current_device() -> int:
    check("cuda")   # raises torch's "not compiled with CUDA" error
    return 0


def synchronize(device=None) -> None:
    check("cuda")
