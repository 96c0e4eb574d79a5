"""Grad mode, per thread, as torch has it: ``no_grad``, ``enable_grad``, ``set_grad_enabled``.

Layer: front end (its bottom: imports nothing of symgrad). Input: nothing. Output: the
switches, each a context manager that also decorates functions, and ``is_grad_enabled``.
"""

from __future__ import annotations

import functools
import threading


class _Local(threading.local):
    enabled = True
    inference = False


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

    def __new__(cls, fn=None):
        if fn is not None:                      # @no_grad without parentheses
            return cls()(fn)
        return super().__new__(cls)

    def __init__(self, fn=None):
        pass


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


class inference_mode(_GradMode):
    """``torch.inference_mode``: like ``no_grad`` here (results record no history);
    ``inference_mode(False)`` changes nothing. Also a bare decorator, as in torch."""

    def __new__(cls, mode=True):
        if callable(mode):                      # @inference_mode without parentheses
            return cls(True)(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True):
        self._on = bool(mode)
        self.mode = False

    def __enter__(self):
        self._prev = _local.enabled, _local.inference
        if self._on:
            _local.enabled, _local.inference = False, True

    def __exit__(self, *exc) -> bool:
        _local.enabled, _local.inference = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(self._on):
                return fn(*args, **kwargs)
        return wrapper


def is_inference_mode_enabled() -> bool:
    return _local.inference
