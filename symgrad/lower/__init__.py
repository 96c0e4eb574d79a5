"""Lowering: the optimized graph IR -> the loop IR (kernels, buffers, views).

Modules: ``loopir`` (the types and the kernel protocol), ``fusion`` (which nodes share a
loop), ``accumulate`` (chains of in-place additions), ``lowering`` (graph -> ``Program``),
``buffers`` (the workspace plan), ``outline`` and ``repeats`` (an unrolled loop's repeated
blocks printed once and called per block), ``capabilities`` (what the backend's kernels take
as they are), and one module per kernel family that lowers the ops naming it
(``OpDef.kernel``): ``matmul``, ``index``, ``cumulative``, ``decomp``, ``sorting``,
``control``, ``guard``, ``cat``, ``poison``.
"""

from .capabilities import Capabilities  # noqa: F401
from .lowering import lower  # noqa: F401
