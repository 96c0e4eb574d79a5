"""Which backend this process compiles with: the one place it is chosen.

Layer: build. ``default()`` is the ``codegen.backend.Backend`` the pipeline renders and builds
with and the runtime loads records with: today always the C backend (``build.c.backend``).
A second backend (another build tier, another target) is chosen here, from ``config``.
"""

from __future__ import annotations

import functools


@functools.cache
def default():
    from .c.backend import CBackend
    return CBackend()
