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
                                           for k in keys))
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
    """A fast ``unflatten(tree, leaves)`` for one structure: trees of tuples, lists and leaves
    become a single generated expression (the hot path of every compiled call); other trees
    use ``unflatten``."""
    code = _expression(tree, iter(range(1 << 30)))
    if code is None:
        return lambda leaves: unflatten(tree, leaves)
    return eval(f"lambda o: {code}")  # generated from the structure only, never from data


def _expression(t: TreeDef, counter: Iterator[int]) -> str | None:
    """The Python expression that builds ``t`` from the list ``o`` (None: not a tree of
    tuples, lists and leaves)."""
    if t.kind == "leaf":
        return f"o[{next(counter)}]"
    if t.kind == "none":
        return "None"
    if t.kind not in ("tuple", "list"):
        return None
    parts = [_expression(c, counter) for c in t.children]
    if any(p is None for p in parts):
        return None
    body = ", ".join(parts) + ("," if t.kind == "tuple" and len(parts) == 1 else "")
    return f"({body})" if t.kind == "tuple" else f"[{body}]"
