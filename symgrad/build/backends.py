"""Which backend this process compiles with: the one place it is chosen.

Layer: build. ``default()`` is the ``codegen.backend.Backend`` the pipeline renders and builds
with and the runtime loads records with: today always the C backend (``build.c.backend``).
A second backend (another build tier, another target) is chosen here, from ``config``.

It also gives compile traces their audit hook (``capture.ADD_AUDIT_HOOK``): the C backend's
native helper filters the events in C (``native.add_audit_hook``); and sparse derivatives
their column coloring in C (``column_colorer``).
"""

from __future__ import annotations

import functools

from ..frontend.core import capture


@functools.cache
def default():
    from .c.backend import CBackend
    return CBackend()


def _add_audit_hook(hook, events: tuple) -> None:
    from .c.native import add_audit_hook
    add_audit_hook(hook, events)


capture.ADD_AUDIT_HOOK[0] = _add_audit_hook


def column_colorer():
    """The C backend's native ``color_columns`` (``transforms.coloring.column_coloring``), or
    None where the helper cannot be had (no compiler: the same colors then come from SciPy
    and Python)."""
    from .c import native
    found = native.helper_or_none()
    return None if found is None else found.color_columns
