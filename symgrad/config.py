"""Every setting symgrad reads from the environment, in one place.

Layer: base (imports nothing of symgrad). Nobody else in the package reads ``os.environ``:
modules ask this one. Settings are read when asked for (not at import), so tests can change the
environment with ``monkeypatch``.

=====================  ==========================================================
variable               meaning
=====================  ==========================================================
SYMGRAD_CACHE_DIR      where compiled modules are kept (default: the user's cache
                       dir, ``$XDG_CACHE_HOME/symgrad`` or ``~/.cache/symgrad``)
SYMGRAD_CC             the C compiler (default: ``$CC``, else ``cc``, else ``gcc``)
SYMGRAD_DEBUG          0 silent; 1 log recompiles and builds (and eager capture's
                       armings, compiles, fallbacks); 2 also print the IR after each
                       pass, the C text and the compiler command; 3 also the stack of
                       each capture fallback
SYMGRAD_CAPTURE        0: never capture repeated eager steps (default on); "eager":
                       capture every step that repeats once (a stress test)
SYMGRAD_NO_CACHE       1: build in a private temporary dir, never reuse a build
SYMGRAD_CHECK          1: verify the IR after tracing and after every pass (the tests
                       set it; a bad pass then fails where it broke the graph)
SYMGRAD_VECTOR_MATH    0: call scalar libm only (default: glibc's libmvec when present)
SYMGRAD_WARM_START     0: always trace a signature new to this process (default: load
                       what an earlier process compiled for the same function, code,
                       globals and signature; off under SYMGRAD_CHECK, which must trace)
SYMGRAD_NUM_THREADS    threads for large loops and BLAS (default "auto": the CPUs this
                       process may use that other processes leave idle); read at
                       import, then ``symgrad.set_num_threads(n)``
=====================  ==========================================================
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

# Where symgrad's own files are (a frame or a module there is symgrad's, not the user's).
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

logger = logging.getLogger("symgrad")


class Settings:
    """Process-wide settings the hot call path reads (one attribute load per call).
    ``num_threads`` 0 is automatic (the backend's governor, ``build.c.threads``)."""

    __slots__ = ("num_threads", "forked")

    def __init__(self) -> None:
        self.num_threads = default_num_threads()
        self.forked = False


def default_num_threads() -> int:
    """``SYMGRAD_NUM_THREADS``, else 0: automatic (``build.c.threads``: the CPUs this process
    may run on that other processes leave idle)."""
    raw = os.environ.get("SYMGRAD_NUM_THREADS", "").strip()
    if raw and raw != "auto":
        try:
            return max(1, int(raw))
        except ValueError:
            logger.warning("SYMGRAD_NUM_THREADS=%r is not an integer; using 1", raw)
            return 1
    return 0


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
    """0, 1, 2 or 3 (see the module docstring); malformed values count as 1."""
    raw = os.environ.get("SYMGRAD_DEBUG", "0").strip()
    try:
        return max(0, int(raw))
    except ValueError:
        return 1


def vector_math_disabled() -> bool:
    return os.environ.get("SYMGRAD_VECTOR_MATH", "1").strip() in ("0", "no", "false")


def capture_mode() -> str:
    """Whether eager steps that repeat are captured and run compiled (``SYMGRAD_CAPTURE``;
    ``frontend.core.lazy``): "on" (the default), "off" (0), or "eager" (every step that
    repeats once, at once: what the tests run the front end's tests with)."""
    raw = os.environ.get("SYMGRAD_CAPTURE", "1").strip().lower()
    return "off" if raw in ("0", "no", "false", "off") else "eager" if raw == "eager" else "on"


def cache_disabled() -> bool:
    return os.environ.get("SYMGRAD_NO_CACHE", "0").strip() not in ("", "0")


def warm_start_disabled() -> bool:
    return os.environ.get("SYMGRAD_WARM_START", "1").strip() in ("0", "no", "false") or \
        cache_disabled() or check_ir()


def check_ir() -> bool:
    return os.environ.get("SYMGRAD_CHECK", "0").strip() not in ("", "0")


def debug(level: int, msg: str, *args: object) -> None:
    """Log ``msg`` when the debug level is at least ``level`` (always to the logger at DEBUG).
    The text is made here, not by a logging handler: a call-time size (``dims.Dim``) prints
    only for symgrad's own code."""
    shown = debug_level() >= level
    if not shown and not logger.isEnabledFor(logging.DEBUG):
        return
    text = msg % args if args else msg
    if shown:
        print(f"[symgrad] {text}", flush=True)
    logger.debug(text)


settings = Settings()


def _after_fork_in_child() -> None:
    # GNU libgomp's thread pool does not survive fork(): a child that enters a parallel region
    # the parent used hangs. Forked children run single-threaded (as PyTorch's do).
    settings.num_threads = 1
    settings.forked = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


