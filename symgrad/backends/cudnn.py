"""``torch.backends.cudnn`` without cuDNN: its flags, kept with torch's defaults.

Layer: front end (torch.backends mirror; imports nothing of symgrad). Programs set
``cudnn.benchmark = True`` for speed or ``cudnn.deterministic = True`` for reproducibility;
the module's attributes hold them (``enabled`` True, ``benchmark`` and ``deterministic``
False, ``allow_tf32`` True, ``benchmark_limit`` None without cuDNN) and change nothing here.
``is_available()`` is False, ``version()`` None; ``flags(...)`` sets them for a block and
restores them.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True
benchmark_limit = None

_NAMES = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")


def is_available() -> bool:
    return False


def version() -> None:
    return None


def is_acceptable(tensor) -> bool:
    return False


@contextlib.contextmanager
def flags(enabled: bool = False, benchmark: bool = False, benchmark_limit: int = 10,
          deterministic: bool = False, allow_tf32: bool = True, fp32_precision: str = "none",
          depthwise_kernel: str = "auto") -> Iterator[None]:
    """The flags set for the block, then restored."""
    me = sys.modules[__name__]
    before = {name: getattr(me, name) for name in _NAMES}
    for name, value in zip(_NAMES, (enabled, benchmark, benchmark_limit, deterministic,
                                    allow_tf32)):
        setattr(me, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(me, name, value)
