"""The globals a user has marked safe for ``load(weights_only=True)``.

Layer: front end (the torch.serialization mirror). Input: what a program passes to
``add_safe_globals`` / ``safe_globals``: classes and functions, or ``(object, "module.name")``
pairs (the name the file uses). Output: torch's functions over the process-wide set
(``add_safe_globals``, ``get_safe_globals``, ``clear_safe_globals``, the ``safe_globals``
context manager) and ``user_allowed()``: the marked objects by the full name a pickle's
GLOBAL would give (``module.qualname``), as torch's weights-only unpickler looks them up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_marked: set = set()


def add_safe_globals(safe_globals: list[Callable | tuple[Callable, str]]) -> None:
    """Mark globals as safe for ``load(weights_only=True)`` (``torch.serialization.
    add_safe_globals``): ``[MyClass]`` or ``[(MyClass, "module.MyClass")]``."""
    global _marked
    _marked = _marked.union(set(safe_globals))


def get_safe_globals() -> list[Callable | tuple[Callable, str]]:
    """The globals marked safe so far."""
    return list(_marked)


def clear_safe_globals() -> None:
    """Forget every global marked safe."""
    global _marked
    _marked = set()


def remove_safe_globals(safe_globals: list[Callable | tuple[Callable, str]]) -> None:
    global _marked
    _marked = _marked - set(safe_globals)


class safe_globals:  # noqa: N801  (torch's name)
    """``with safe_globals([MyClass]): load(f)``: the globals are safe inside the block."""

    def __init__(self, safe_globals: list[Callable | tuple[Callable, str]]) -> None:
        self.safe_globals = safe_globals

    def __enter__(self) -> None:
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc: Any) -> None:
        remove_safe_globals(self.safe_globals)


def user_allowed() -> dict[str, Any]:
    """The marked globals by full name (torch's checks of the ``(object, name)`` pairs)."""
    found: dict[str, Any] = {}
    for entry in _marked:
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ValueError(f"Expected tuple of length 2 (global, str of callable full "
                                 f"path), but got tuple of length: {len(entry)}")
            if type(entry[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full "
                                f"path, but got: {type(entry[1])}")
            found[entry[1]] = entry[0]
        else:
            found[f"{entry.__module__}.{entry.__qualname__}"] = entry
    return found
