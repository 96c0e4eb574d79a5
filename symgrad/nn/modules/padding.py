"""Padding layers: ``ZeroPad1d/2d/3d``, ``ConstantPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``,
``ReplicationPad1d/2d/3d``, ``CircularPad1d/2d/3d``.

Layer: front end (torch.nn mirror). Input: the padding (an int, or 2, 4 or 6 ints: last dim
first, as ``F.pad`` reads them) and, for the constant pads, the fill value. Output:
parameterless modules storing the padding as a tuple (torch's attributes and reprs) whose
forward is ``nn.functional.pad`` in their mode (the circular pads check the input's rank
first, as torch's do). It must not compute outside forward.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .module import Module


def _ntuple(value: Any, n: int) -> tuple:
    """torch's ``_ntuple``: an iterable as a tuple, anything else repeated ``n`` times."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _PadNd(Module):
    """A padding of ``2 * _dims`` numbers in mode ``_mode``."""

    _dims = 1
    _mode = "constant"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._dims)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with ``value``."""


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dims with ``value``."""

    _dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with ``value``."""

    _dims = 3


class _ZeroPad:
    """A constant pad of zeros (a ``ConstantPad<n>d``, as torch's zero pads are)."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPad, ConstantPad1d):
    """Pad the last dim with zeros."""


class ZeroPad2d(_ZeroPad, ConstantPad2d):
    """Pad the last two dims with zeros."""


class ZeroPad3d(_ZeroPad, ConstantPad3d):
    """Pad the last three dims with zeros."""


class _ReflectionPadNd(_PadNd):
    _mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    """Pad the last dim with its reflection (the edge not repeated)."""


class ReflectionPad2d(_ReflectionPadNd):
    """Pad the last two dims with their reflection."""

    _dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    """Pad the last three dims with their reflection."""

    _dims = 3


class _ReplicationPadNd(_PadNd):
    _mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    """Pad the last dim by repeating its edge."""


class ReplicationPad2d(_ReplicationPadNd):
    """Pad the last two dims by repeating their edges."""

    _dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    """Pad the last three dims by repeating their edges."""

    _dims = 3


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.ndim not in (self._dims + 1, self._dims + 2):
            raise ValueError(f"expected {self._dims + 1}D or {self._dims + 2}D input (got "
                             f"{input.ndim}D input)")
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    """Pad the last dim by wrapping around: (N, C, L) or (C, L)."""


class CircularPad2d(_CircularPadNd):
    """Pad the last two dims by wrapping around: (N, C, H, W) or (C, H, W)."""

    _dims = 2


class CircularPad3d(_CircularPadNd):
    """Pad the last three dims by wrapping around: (N, C, D, H, W) or (C, D, H, W)."""

    _dims = 3
