"""Thread-local front-end state: grad mode (torch's no_grad & co.) and the active trace.

Input: nothing. Output: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``is_grad_enabled``
and the active ``Trace`` (if any) with its source-location side table. Like torch, grad mode
is per thread. This module knows nothing about ops or tensors.
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
import threading
from dataclasses import dataclass, field

_PKG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class _Local(threading.local):
    grad_enabled = True
    trace: "Trace | None" = None


_local = _Local()


def is_grad_enabled() -> bool:
    return _local.grad_enabled


class _GradMode:
    """Base of the grad-mode switches: a context manager that also decorates functions."""

    mode = True

    def __enter__(self):
        self._prev = _local.grad_enabled
        _local.grad_enabled = self.mode

    def __exit__(self, *exc) -> bool:
        _local.grad_enabled = self._prev
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    """Operations inside record no history: their results do not require grad."""

    mode = False


class enable_grad(_GradMode):
    """Turn history recording back on (e.g. inside a ``no_grad`` block)."""

    mode = True


class set_grad_enabled(_GradMode):
    """``set_grad_enabled(False)`` acts at once, and as a context restores the old mode."""

    def __init__(self, mode: bool):
        self.mode = bool(mode)
        self._prev = _local.grad_enabled
        _local.grad_enabled = self.mode

    def __enter__(self):
        pass


# ------------------------------------------------------------------ tracing

@dataclass(frozen=True)
class Loc:
    """Where the user's code created a value: file base name, line, and the line's text."""

    file: str
    line: int
    text: str
    note: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}{' ' + self.note if self.note else ''}"


@dataclass
class Trace:
    """The state of one tracing run: node -> Loc, and the backward context if any."""

    name: str
    locs: dict = field(default_factory=dict)
    loc_override: Loc | None = None
    forward_outputs: list | None = None   # set by a gradient transform: the primal outputs


def current_trace() -> Trace | None:
    return _local.trace


class tracing:
    """Context manager that makes ``trace`` the active one for this thread."""

    def __init__(self, trace: Trace):
        self.trace = trace

    def __enter__(self) -> Trace:
        self._prev = _local.trace
        _local.trace = self.trace
        return self.trace

    def __exit__(self, *exc) -> bool:
        _local.trace = self._prev
        return False


def user_loc() -> Loc | None:
    """The innermost stack frame outside the symgrad package (the user's line)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PKG_DIR):
        frame = frame.f_back
    if frame is None:
        return None
    path = frame.f_code.co_filename
    text = linecache.getline(path, frame.f_lineno).strip()
    return Loc(os.path.basename(path), frame.f_lineno, text)


def record(node) -> Loc | None:
    """Give ``node`` a source location in the active trace (the first one wins)."""
    trace = _local.trace
    if trace is None:
        return None
    loc = trace.loc_override or trace.locs.get(node) or user_loc()
    trace.locs.setdefault(node, loc)
    return loc
