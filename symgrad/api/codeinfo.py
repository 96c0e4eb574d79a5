"""What a code object reads: the names it uses, the globals it loads, the modules it imports.

Layer: api (below ``fingerprint``). Input: a Python code object. Output: sets of names, read
from its bytecode and constants (nested code included), for ``fingerprint`` to guard: the
globals and attributes it could read, the builtins a later global could hide, the modules an
``import`` inside it finds in ``sys.modules`` when it runs.
"""

from __future__ import annotations

import dis
import importlib.util
import types


def names_read(code: types.CodeType) -> set:
    """The names a code object and the code nested in it read (globals and attributes), and
    the identifiers among its strings (``getattr(cfg, "lr")``, ``globals()["X"]``)."""
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= names_read(const)
        elif type(const) is str and const.isidentifier():
            found.add(const)
    return found


def loads_and_imports(code: types.CodeType) -> tuple[set, set]:
    """The names a code object (and the code nested in it) loads as globals, and the modules
    it imports (as (level, name): ``from . import x`` has level 1)."""
    loads, imports, level = set(), set(), 0
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            loads.add(ins.argval)
        elif ins.opname == "LOAD_CONST" and type(ins.argval) is int:
            level = ins.argval                # (IMPORT_NAME's level is pushed just before)
        elif ins.opname == "IMPORT_NAME":
            imports.add((level, ins.argval))
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            more = loads_and_imports(const)
            loads |= more[0]
            imports |= more[1]
    return loads, imports


def absolute_module(imported: tuple, namespace: dict) -> str | None:
    """The module name an ``import`` in code of the module ``namespace`` resolves to."""
    level, name = imported
    if not level:
        return name
    try:
        return importlib.util.resolve_name("." * level + name, namespace.get("__package__"))
    except (ImportError, ValueError):
        return None
