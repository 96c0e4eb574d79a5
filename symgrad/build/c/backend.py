"""The C backend: C99 text with OpenMP pragmas, built by the system's C compiler as a plain
shared object and called through symgrad's native helper. Today's one implementation of
``codegen.backend.Backend``.

Layer: build (the C backend). ``render`` is ``codegen.c.module.generate``; ``build`` is
``build.c.compiler.build`` (through the cache), whose ``BuiltModule`` is the ``Module``;
``target()`` is what this machine's toolchain has (glibc's vector math: ``toolchain``'s probe,
run once per process); ``capabilities`` says which strided matrices BLAS reads in place
(``codegen.c.matmul.blas_takes``). The rest of symgrad reaches it through
``build.backends.default()``.
"""

from __future__ import annotations

import functools

from typing import TYPE_CHECKING

from ...codegen.c.csource import CSource, Target
from . import toolchain

if TYPE_CHECKING:
    from ...lower.capabilities import Capabilities


class CBackend:
    name = "c"

    @functools.cached_property
    def capabilities(self) -> Capabilities:
        # (lowering and the emitters load when compiling: a warm start needs neither)
        from ...codegen.c.matmul import blas_takes
        from ...lower.capabilities import Capabilities
        return Capabilities(gemm_operand=blas_takes)

    def threads(self) -> int:
        """The threads the next call runs on (the governor, ``build.c.threads``)."""
        from .threads import threads
        return threads()

    def target(self) -> Target:
        """This process's target: symgrad's own build, with vector math when the toolchain
        has it (probed once per process, ``toolchain.has_vector_math``)."""
        return _target(toolchain.has_vector_math())

    def render(self, program, name: str, title: str, target: Target | None = None,
               create_cache: bool = False) -> CSource:
        """The C of ``program``. The compiled Jinja2 templates are kept beside the templates,
        else beside the builds (``templatecache``; ``create_cache``: even if the cache's root
        must be created for them)."""
        from ...codegen.c.module import generate   # (Jinja2 and the printers: when used)
        from .templatecache import bytecode_cache
        return generate(program, name, title=title,
                        target=self.target() if target is None else target,
                        template_cache=bytecode_cache(create_cache))

    def build(self, source: CSource, name_hint: str):
        from .compiler import build
        return build(source, name_hint=name_hint)


@functools.cache
def _target(vector_math: bool) -> Target:
    return Target(vector_math=vector_math)
