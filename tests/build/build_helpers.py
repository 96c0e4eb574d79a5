"""Hand-written C through the build layer: the helpers the build tests share."""

from __future__ import annotations

from symgrad.build.c import compiler
from symgrad.codegen.c.csource import BuildNeeds, CSource


def source(text: str, cdef: str, *, units=("main",), needs: BuildNeeds | None = None) -> CSource:
    """A C source object for hand-written C (its entry point's name is not needed to build)."""
    return CSource(text, "sg_entry", cdef, units=tuple(units), needs=needs or BuildNeeds())


def build_module(text: str, cdef: str, *, name_hint: str = "fn", opt_flags=None, units=("main",),
                 needs: BuildNeeds | None = None) -> compiler.BuiltModule:
    return compiler.build(source(text, cdef, units=units, needs=needs), name_hint=name_hint,
                          opt_flags=opt_flags)


def module_key(text: str, cdef: str, *, opt_flags=None, units=("main",),
               needs: BuildNeeds | None = None) -> str:
    return compiler.module_key(source(text, cdef, units=units, needs=needs), opt_flags=opt_flags)
