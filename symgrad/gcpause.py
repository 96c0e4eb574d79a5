"""Pause Python's cyclic garbage collector while a compile stage builds a large object graph.

Layer: base. Tracing, the passes, lowering and code generation of a large program allocate
hundreds of thousands of long-lived objects (nodes, tuples, statements) and almost no cyclic
garbage. Each allocation burst makes the collector run a full collection over everything alive,
again and again as the heap grows: measured on a 22k-node unrolled RK4 gradient, 1.6 s of the
2.7 s these stages took. Inside ``paused()`` the collector does not run; reference counting
still frees everything that is not in a cycle, and the cycles left behind are collected after
the pause. (The stages make no cycles of their own: recursive closures, a tensor referring to its
own accumulator or a backward function to its output would each keep a whole tape alive until
a collection.)

At the end of the pause, what the stages built and kept moves straight to the old generation,
unscanned (``gc.freeze()`` then ``gc.unfreeze()``: two list splices): a young collection would
scan all of it once more only to find it alive (an unrolled 400-step RK4's gradient, 540k
objects: 0.38 s), and each young collection during the stages scanned it again (a 7x7
determinant's gradient, 690k objects: 2.2 s of collections during a compile before). Cyclic
garbage made meanwhile waits for the next full collection. A program that froze objects
itself (``gc.freeze()`` before forking workers) keeps them frozen: then the young generations
are collected instead.

Nesting and threads: the collector is disabled when the first pause begins and re-enabled when
the last one ends, only if it was enabled before (a program that disabled it keeps it off).
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = ["paused", "pausing"]

_lock = threading.Lock()
_depth = 0
_resume = False

F = TypeVar("F", bound=Callable)


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (see the module docstring)."""
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
                _to_old_generation()


def _to_old_generation() -> None:
    """Move every tracked object to the oldest generation (see the module docstring)."""
    if gc.get_freeze_count():
        gc.collect(1)     # (the program's own frozen objects must stay frozen)
    else:
        gc.freeze()
        gc.unfreeze()


def pausing(fn: F) -> F:
    """Decorator: ``fn`` runs inside ``paused()``."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with paused():
            return fn(*args, **kwargs)
    return wrapper  # type: ignore[return-value]
