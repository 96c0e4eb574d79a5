"""``torch.backends.mps`` on a machine without Metal: not available, not built.

Layer: front end (torch.backends mirror; imports nothing of symgrad). Programs pick
``"mps" if torch.backends.mps.is_available() else "cpu"``: here the CPU.
"""

from __future__ import annotations


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False


def is_macos_or_newer(major: int, minor: int) -> bool:
    return False


def is_macos13_or_newer(minor: int = 0) -> bool:
    return False
