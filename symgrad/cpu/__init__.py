"""``torch.cpu``: the CPU as a device module (the one device symgrad computes on).

Layer: front end (the torch API surface; imports only its own ``amp``). ``is_available()`` is
True, there is one device, ``current_device()`` is ``"cpu"``; synchronizing has nothing to
wait for. ``torch.cpu.amp`` is ``amp`` (the deprecated spelling of ``torch.amp.autocast("cpu")``).
"""

from __future__ import annotations

from . import amp  # noqa: F401


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def is_initialized() -> bool:
    return True


def synchronize(device=None) -> None:
    """Nothing to wait for: CPU work is done when its call returns."""


def set_device(device) -> None:
    """Accepted, as in torch (there is one CPU device)."""
