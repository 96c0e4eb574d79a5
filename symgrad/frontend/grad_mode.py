"""Grad mode, per thread, as torch has it: ``no_grad``, ``enable_grad``, ``set_grad_enabled``.

Layer: front end (its bottom: imports nothing of symgrad). Input: nothing. Output: the
switches, each a context manager that also decorates functions, and ``is_grad_enabled``.
"""

from __future__ import annotations

import functools
import threading


class _Local(threading.local):
    enabled = True


_local = _Local()


def is_grad_enabled() -> bool:
    return _local.enabled


class _GradMode:
    """Base of the grad-mode switches: a context manager that also decorates functions."""

    mode = True

    def __enter__(self):
        self._prev = _local.enabled
        _local.enabled = self.mode

    def __exit__(self, *exc) -> bool:
        _local.enabled = self._prev
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
        self._prev = _local.enabled
        _local.enabled = self.mode

    def __enter__(self):
        pass
