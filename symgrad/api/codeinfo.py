"""What a code object reads: the names it uses, the globals it loads, the modules it imports,
the constant keys it reads a dict at.

Layer: api (below ``fingerprint``). Input: a Python code object. Output: sets of names, read
from its bytecode and constants (nested code included), for ``fingerprint`` to guard: the
globals and attributes it could read, the builtins a later global could hide, the modules an
``import`` inside it finds in ``sys.modules`` when it runs, and the keys at which it reads a
dict bound to one of its names when it uses the dict no other way (``keys_read``: the walk
then follows those items only).
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


# What a code object does with a name, by where the name lives: the ops that load, store or
# delete it, and pass it on (a cell to nested code)
_USES = {"cell": frozenset({"LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_CLOSURE", "STORE_DEREF",
                            "DELETE_DEREF"}),
         "global": frozenset({"LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL",
                              "STORE_NAME", "DELETE_NAME"})}
# Names through which code can reach a function's globals or cells without naming them
_INTROSPECTION = frozenset({"globals", "locals", "vars", "eval", "exec", "f_locals",
                            "f_globals", "f_back", "_getframe", "currentframe", "__closure__",
                            "__globals__", "cell_contents", "getclosurevars"})


def keys_read(code: types.CodeType, name: str, where: str) -> frozenset | None:
    """The constant keys at which ``code`` reads the container bound to ``name`` when those
    are its only uses of it: ``name["k"]`` and ``"k" in name``. ``where``: "cell" (a closure
    variable of ``code``'s function: its own code, nested code gets the cell passed, which
    is another use) or "global" (nested code included). None: some other use (a store, an
    iteration, a method, a call with it, a variable key), or code that could reach it by
    introspection (``globals()``, frame attributes)."""
    codes = [code]
    if where == "global":
        codes = _nested(code)
    if any(_INTROSPECTION & set(c.co_names) for c in codes):
        return None
    keys: set = set()
    for c in codes:
        ins = list(dis.get_instructions(c))
        for i, x in enumerate(ins):
            if x.opname not in _USES[where] or x.argval != name:
                continue
            key = _constant_key(ins, i)
            if key is _OTHER:
                return None
            keys.add(key)
    return frozenset(keys)


_OTHER = object()


def _constant_key(ins: list, i: int):
    """The key of a ``name[const]`` read or a ``const in name`` test at instruction ``i``
    (the load of ``name``), else ``_OTHER``."""
    after = [x.opname for x in ins[i + 1:i + 3]]
    if after[:1] == ["LOAD_CONST"] and len(after) == 2 and (
            after[1] == "BINARY_SUBSCR" or after[1] == "BINARY_OP" and
            ins[i + 2].argrepr == "[]"):
        key = ins[i + 1].argval
    elif i > 0 and ins[i - 1].opname == "LOAD_CONST" and after[:1] == ["CONTAINS_OP"]:
        key = ins[i - 1].argval
    else:
        return _OTHER
    try:
        hash(key)
    except TypeError:
        return _OTHER
    return key


def _nested(code: types.CodeType) -> list:
    """``code`` and every code object nested in it."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found += _nested(const)
    return found
