"""``Deferred``: a value of a trace that is not a tensor yet, because its shape is known only
when the compiled code runs (a boolean-mask selection, ``functions.selection``).

Layer: front end (core), below ``apply``. Input: nothing. Output: the protocol such a value
answers. ``apply`` asks it to compute an op it is an operand of (``applied``: elementwise math
on the selected elements); the reductions that can consume it ask it by their methods;
anything that needs it as a tensor (``as_tensor``) gets ``size_needed``'s error, which names
the line.
"""

from __future__ import annotations

from typing import Any


class Deferred:
    """The protocol (see the module docstring); subclasses implement both methods."""

    __slots__ = ()

    def size_needed(self, what: str) -> Exception:
        """The error of using this value as a ``what`` that needs its shape."""
        raise NotImplementedError

    def applied(self, name: str, args: tuple, attrs: dict) -> Any:
        """Primitive ``name`` applied to ``args`` (this value among them) and ``attrs``."""
        raise NotImplementedError
