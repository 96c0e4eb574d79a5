"""symgrad.compiler: the torch.compiler names model code asks or decorates with.

Layer: front end (the torch API surface). ``is_compiling()`` is True while symgrad traces a
function into a graph (inside ``symgrad.compile``/``torch.compile``), as torch's is while
Dynamo traces; ``is_exporting()`` is False. ``disable``, ``allow_in_graph`` and
``assume_constant_result`` mark functions for Dynamo: they return the function as it is
(symgrad traces through Python, it has no graph breaks to place). ``reset()`` has nothing to
clear that a later call would not check again (compiled code is keyed by what it read).
"""

from __future__ import annotations

import functools

from .frontend.core import sources


def is_compiling() -> bool:
    return sources.current() is not None


is_dynamo_compiling = is_compiling


def is_exporting() -> bool:
    return False


def disable(fn=None, recursive: bool = True, *, reason: str | None = None):
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)
    return fn


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn


def reset() -> None:
    """Nothing to reset: a compiled function checks what it read at every call."""
