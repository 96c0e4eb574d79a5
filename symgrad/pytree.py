"""Nested Python containers <-> flat lists of leaves, with a hashable structure.

Layer: base. Input: arguments or results (tuples, lists, dicts, None, namedtuples of leaves).
Output: the leaves in a deterministic order (dict keys sorted) and a ``TreeDef`` that rebuilds
the container. Knows nothing about tensors.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterator
from typing import Any


@dataclass(frozen=True)
class TreeDef:
    kind: str                 # "leaf" | "none" | "tuple" | "list" | "dict" | "namedtuple"
    meta: Any = None          # dict keys / namedtuple class
    children: tuple = ()
    # A dict's key types: keys that are equal but of other types (1, 1.0, True) are another
    # structure, as the function may tell them apart (``str(k)``).
    types: tuple = ()

    def describe(self) -> str:
        if self.kind == "leaf":
            return "*"
        if self.kind == "none":
            return "None"
        inner = ", ".join(c.describe() for c in self.children)
        if self.kind == "dict":
            inner = ", ".join(f"{k!r}: {c.describe()}" for k, c in zip(self.meta, self.children))
            return "{" + inner + "}"
        if self.kind == "list":
            return "[" + inner + "]"
        return "(" + inner + ("," if len(self.children) == 1 else "") + ")"


LEAF = TreeDef("leaf")


def flatten(obj: Any, path: str = "", paths: list | None = None) -> tuple[list, TreeDef]:
    """Leaves of ``obj`` and its structure; ``paths`` (if given) collects each leaf's path."""
    leaves: list = []
    return leaves, _flatten(obj, path, leaves, paths)


# The walks below are module functions, not closures: a recursive closure refers to itself
# through its cell, a reference cycle that would keep everything it saw (a traced program's
# whole tape, through the leaves list) alive until the cyclic garbage collector ran.

def _flatten(o: Any, p: str, leaves: list, paths: list | None) -> TreeDef:
    if o is None:
        return TreeDef("none")
    if isinstance(o, tuple) and hasattr(o, "_fields"):
        return TreeDef("namedtuple", type(o), tuple(_flatten(v, f"{p}.{f}", leaves, paths)
                                                    for f, v in zip(o._fields, o)))
    if isinstance(o, (tuple, list)):
        kids = tuple(_flatten(v, f"{p}[{i}]", leaves, paths) for i, v in enumerate(o))
        return TreeDef("tuple" if isinstance(o, tuple) else "list", None, kids)
    if isinstance(o, dict):
        try:
            keys = tuple(sorted(o))
        except TypeError:
            raise TypeError(f"dict keys of argument {p or 'value'} must be sortable "
                            f"(got {list(o)!r})") from None
        return TreeDef("dict", keys, tuple(_flatten(o[k], f"{p}[{k!r}]", leaves, paths)
                                           for k in keys), tuple(map(type, keys)))
    leaves.append(o)
    if paths is not None:
        paths.append(p)
    return LEAF


def unflatten(tree: TreeDef, leaves: list) -> Any:
    return _unflatten(tree, iter(leaves))


def _unflatten(t: TreeDef, it: Iterator) -> Any:
    if t.kind == "leaf":
        return next(it)
    if t.kind == "none":
        return None
    kids = [_unflatten(c, it) for c in t.children]
    if t.kind == "tuple":
        return tuple(kids)
    if t.kind == "list":
        return kids
    if t.kind == "namedtuple":
        return t.meta(*kids)
    return dict(zip(t.meta, kids))


def count(tree: TreeDef) -> int:
    if tree.kind == "leaf":
        return 1
    return sum(count(c) for c in tree.children)


def unflattener(tree: TreeDef):
    """A fast ``unflatten(tree, leaves)`` for one structure: a single generated expression
    (the hot path of every compiled call), for trees of tuples, lists, namedtuples, None and
    dicts whose keys are strings, ints or bools; other trees use ``unflatten``."""
    classes: dict = {}
    code = _expression(tree, iter(range(1 << 30)), classes)
    if code is None:
        return lambda leaves: unflatten(tree, leaves)
    # generated from the structure only, never from data (keys: their repr, checked above)
    return eval(f"lambda o: {code}", classes)


# Dict keys written into a generated expression as their repr (which reads back as them).
_LITERAL_KEYS = (str, int, bool)


def _expression(t: TreeDef, counter: Iterator[int], classes: dict) -> str | None:
    """The Python expression that builds ``t`` from the list ``o`` (None: a tree it cannot
    write); a namedtuple class goes into ``classes`` under the name the expression uses."""
    if t.kind == "leaf":
        return f"o[{next(counter)}]"
    if t.kind == "none":
        return "None"
    if t.kind == "dict" and (len(t.types) != len(t.meta) or
                             not all(k in _LITERAL_KEYS for k in t.types)):
        return None     # (no types: a tree pickled before they were kept)
    parts = [_expression(c, counter, classes) for c in t.children]
    if any(p is None for p in parts):
        return None
    if t.kind == "dict":
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(t.meta, parts)) + "}"
    body = ", ".join(parts) + ("," if t.kind != "list" and len(parts) == 1 else "")
    if t.kind == "namedtuple":
        name = f"T{len(classes)}"
        classes[name] = t.meta
        return f"{name}({body})"
    return f"({body})" if t.kind == "tuple" else f"[{body}]"
