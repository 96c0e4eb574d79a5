"""Every setting symgrad reads from the environment, in one place.

Nobody else in the package reads ``os.environ``: modules ask this one. Settings are read
when asked for (not at import), so tests can change the environment with ``monkeypatch``.

=====================  ==========================================================
variable               meaning
=====================  ==========================================================
SYMGRAD_CACHE_DIR      where compiled modules are kept (default: the user's cache
                       dir, ``$XDG_CACHE_HOME/symgrad`` or ``~/.cache/symgrad``)
SYMGRAD_CC             the C compiler (default: ``$CC``, else ``cc``, else ``gcc``)
SYMGRAD_DEBUG          0 silent; 1 log recompiles and builds; 2 also print the IR
                       after each pass, the C text and the compiler command
SYMGRAD_NO_CACHE       1: build in a private temporary dir, never reuse a build
SYMGRAD_VECTOR_MATH    0: call scalar libm only (default: glibc's libmvec when present)
=====================  ==========================================================
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

logger = logging.getLogger("symgrad")


def cache_dir() -> Path:
    """The root of the on-disk cache of compiled modules."""
    explicit = os.environ.get("SYMGRAD_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "symgrad"


def compiler_command() -> str | None:
    """The C compiler the user asked for, or None to let the compiler module search."""
    return os.environ.get("SYMGRAD_CC") or os.environ.get("CC") or None


def debug_level() -> int:
    """0, 1 or 2 (see the module docstring); malformed values count as 1."""
    raw = os.environ.get("SYMGRAD_DEBUG", "0").strip()
    try:
        return max(0, int(raw))
    except ValueError:
        return 1


def vector_math_disabled() -> bool:
    return os.environ.get("SYMGRAD_VECTOR_MATH", "1").strip() in ("0", "no", "false")


def cache_disabled() -> bool:
    return os.environ.get("SYMGRAD_NO_CACHE", "0").strip() not in ("", "0")


def debug(level: int, msg: str, *args: object) -> None:
    """Log ``msg`` when the debug level is at least ``level`` (always to the logger at DEBUG)."""
    if debug_level() >= level:
        text = msg % args if args else msg
        print(f"[symgrad] {text}", flush=True)
    logger.debug(msg, *args)
