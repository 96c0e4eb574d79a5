"""Lowering: the optimized graph IR -> the loop IR (kernels, buffers, views).

Modules: ``loopir`` (the types), ``fusion`` (which nodes share a loop), ``lowering`` (graph ->
``Program``), ``buffers`` (the workspace plan).
"""

from .lowering import lower  # noqa: F401
