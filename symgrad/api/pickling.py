"""How a compiled function's Python function travels to another process.

Layer: api (below ``compiled``). A compiled function pickles by value: each specialization as
its artifact (C text, cache key, signature), plus the Python function for new signatures, by
reference when it can be imported by name. This module decides what to send for the function
(``function_ref``) and what to make of it on arrival (``resolve``).
"""

from __future__ import annotations

import importlib
import pickle
from typing import Any
from collections.abc import Callable


class ByName:
    """A function found again by its module and qualified name: the one a compiled function
    decorates, which that name now denotes (``@sg.compile def f``)."""

    def __init__(self, module: str, qualname: str):
        self.module, self.qualname = module, qualname

    def resolve(self) -> Callable:
        obj = named(self.module, self.qualname)
        return _recipe(obj)[1] if _recipe(obj) is not None else obj   # (the function wrapped)


def _recipe(obj) -> tuple | None:
    """A compiled function's recipe (``CompiledFunction.recipe``); None for anything else."""
    return obj.recipe if getattr(obj, "symgrad_compiled", False) is True else None


def named(module: str, qualname: str) -> Any:
    """The object ``module.qualname`` names (importing the module)."""
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def function_ref(fn: Callable) -> Any:
    """What to pickle for ``fn``: ``fn`` itself if pickle can save it by reference, a
    ``ByName`` if its name now denotes a compiled function wrapping it, else None."""
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", "")
    if module and "<" not in qualname:
        try:
            obj = named(module, qualname)
        except (ImportError, AttributeError):
            obj = None
        if obj is fn:
            return fn
        recipe = _recipe(obj)
        if recipe is not None and recipe[1] is fn:
            return ByName(module, qualname)
    try:
        pickle.dumps(fn)
        return fn
    except Exception:   # noqa: BLE001  (any reason: the function stays behind)
        return None


def resolve(fn: Any, name: str, signatures: str) -> Callable:
    """The function ``function_ref`` sent; without one, a function that says why it cannot
    compile a new signature."""
    if isinstance(fn, ByName):
        return fn.resolve()
    if fn is not None:
        return fn

    def missing(*args, **kwargs):
        raise TypeError(f"{name} was unpickled without its Python function (a lambda or a "
                        f"local function cannot be pickled), so it cannot compile a new "
                        f"signature; the signatures compiled before pickling were: "
                        f"{signatures}")
    missing.__name__ = missing.__qualname__ = name
    return missing
