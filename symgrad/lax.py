"""JAX's ``lax`` control flow, with JAX's signatures exactly: ``symgrad.lax.cond(pred,
true_fun, false_fun, *operands)`` calls the branch with the operands as given, where
``symgrad.cond`` reads a single tuple of operands torch's way (``torch.cond(pred, f, g, (x,))``
calls ``f(x)``). ``scan``, ``fori_loop`` and ``while_loop`` are ``symgrad``'s.

Layer: front end (a namespace). Input and output: see ``frontend.control.loops``.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from .frontend.control.loops import fori_loop, scan, switch_cond, while_loop

__all__ = ["cond", "fori_loop", "scan", "while_loop"]


def cond(pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)`` (JAX's lax.cond)."""
    return switch_cond(pred, true_fun, false_fun, operands)
