"""What a compiled specialization reads besides its arguments, live in this process, and the
checks its call path makes before reusing it.

Layer: runtime. Input: the captured objects of a trace (``frontend.core.capture``: tensors and
arrays passed to the C after the arguments) and what the trace read concretely. Output: a
``Captured``, whose ``lines`` are part of the generated call path (``callgen``):

- each captured object's current values are passed by pointer (a tensor's ``_value`` is read
  at each call: an optimizer step or ``load_state_dict`` replaces or updates it);
- a captured tensor whose storage no longer has the traced shape or dtype (a new ``.data``),
  a tensor whose value the trace read as a number (its version or storage changed), an array
  the code baked whose bytes changed, an environment variable, a file or the working
  directory the trace read that changed: raise ``Stale``, and the compiled function traces
  again;
- ``needs_autograd()``: whether autograd records (grad mode on) and a captured tensor
  requires grad; a compiled function called on tensors then runs its Python body, so that
  the result has a ``grad_fn`` through the parameters, as torch.compile's does (called on
  NumPy arrays, it runs the C: NumPy in, NumPy out).

A specialization without captured state has no such lines: its call path is unchanged.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from dataclasses import dataclass

import numpy as np

from ..frontend.core import grad_mode
from ..frontend.core.capture import WORLD
from ..frontend.core.tensor import Tensor


class Stale(Exception):
    """Captured state changed in a way that the compiled code cannot take (see module)."""


@dataclass(frozen=True)
class Captured:
    objects: tuple = ()     # the captured tensors and arrays, in input order (after the args)
    reads: tuple = ()       # (tensor, version cell, version, storage) read concretely
    arrays: tuple = ()      # (array, its bytes) of reachable arrays the code baked
    world: tuple = ()       # (kind, argument, value) of each read of the world (WORLD)
    volatile: tuple = ()    # why the results depend on more than this (then not stored)

    def __bool__(self) -> bool:
        return bool(self.objects or self.reads or self.arrays or self.world)

    def values(self) -> list:
        """The captured objects' current values, as the C reads them (after the arguments:
        what ``ir.interpret`` of the traced graph takes too)."""
        return [o.concrete if isinstance(o, Tensor) else o for o in self.objects]

    def needs_autograd(self) -> bool:
        """Whether a call now would record autograd history through captured tensors."""
        return grad_mode._local.enabled and any(
            isinstance(o, Tensor) and o.requires_grad for o in self.objects)

    def lines(self, first: int) -> list[str]:
        """Generated lines: the checks, then ``a{first + k}`` = each captured object's
        values (the call path then converts and checks them as inputs)."""
        lines = []
        for j in range(len(self.reads)):
            lines.append(f"if rc{j}[0] != rv{j} or rt{j}._value is not rs{j}: "
                         f"raise Stale('a tensor it read as a number changed')")
        for j in range(len(self.arrays)):
            lines.append(f"if not same_bytes(ba{j}, bb{j}): "
                         f"raise Stale('an array whose values it baked in changed')")
        for j, (kind, arg, _) in enumerate(self.world):
            what = _WHAT[kind] + ("" if arg is None else f" {arg}")
            lines.append(f"if wf{j}(wa{j}) != wv{j}: raise Stale({f'{what} changed'!r})")
        for k, obj in enumerate(self.objects):
            lines.append(f"a{first + k} = cap{k}._value" if isinstance(obj, Tensor)
                         else f"a{first + k} = cap{k}")
        return lines

    def holds(self) -> bool:
        """Whether every check of ``lines`` passes now (what a caller that is not generated
        code asks: ``api.sparse``'s plans)."""
        return all(c[0] == v and t.concrete is st for t, c, v, st in self.reads) and \
            all(same_bytes(a, data) for a, data in self.arrays) and world_holds(self.world)

    def environment(self) -> dict:
        env = {"Stale": Stale, "same_bytes": same_bytes}
        for k, obj in enumerate(self.objects):
            env[f"cap{k}"] = obj
        for j, (t, cell, version, storage) in enumerate(self.reads):
            env[f"rt{j}"], env[f"rc{j}"], env[f"rv{j}"], env[f"rs{j}"] = \
                t, cell, version, storage
        for j, (a, data) in enumerate(self.arrays):
            env[f"ba{j}"], env[f"bb{j}"] = a, data
        for j, (kind, arg, value) in enumerate(self.world):
            env[f"wf{j}"], env[f"wa{j}"], env[f"wv{j}"] = WORLD[kind], arg, value
        return env


_WHAT = {"env": "environment variable", "file": "file", "cwd": "the working directory"}


def world_holds(world: tuple) -> bool:
    """Whether every read of the world gives what it gave while tracing."""
    return all(WORLD[kind](arg) == value for kind, arg, value in world)


def same_bytes(a: np.ndarray, data: tuple) -> bool:
    """Whether array ``a`` still has the shape, dtype and bytes ``snapshot(a)`` recorded: a
    large contiguous one compared in place by libc's memcmp (about 0.1 ms per MB; a copy
    and compare, ``tobytes``, costs ten times that)."""
    shape, dtype, raw, raw_at = data
    if a.shape != shape or a.dtype != dtype:
        return False
    if raw_at and a.flags.c_contiguous:
        return _memcmp(a.ctypes.data, raw_at, a.nbytes) == 0
    return a.tobytes() == raw.tobytes() if a.nbytes >= _LARGE else a.tobytes() == raw


def snapshot(a: np.ndarray) -> tuple:
    """What ``same_bytes`` compares with: a copy of ``a``'s bytes (an array when large, with
    its address for memcmp: 0 where it is compared otherwise)."""
    if a.nbytes < _LARGE:
        return a.shape, a.dtype, a.tobytes(), 0
    raw = np.array(a, order="C")
    return a.shape, a.dtype, raw, raw.ctypes.data if _memcmp is not None else 0


_LARGE = 1 << 14


def _libc_memcmp():
    try:
        fn = ctypes.CDLL(ctypes.util.find_library("c") or None).memcmp
    except (OSError, AttributeError):
        return None
    fn.restype = ctypes.c_int
    fn.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
    return fn


_memcmp = _libc_memcmp()


def convert_capture(name: str, value, spec) -> np.ndarray:
    """A captured object's values as the C needs them (``spec``: the traced input's shape
    and dtype): a contiguous copy when they are laid out otherwise; ``Stale`` when their
    shape or kind of dtype changed since the trace."""
    if not isinstance(value, np.ndarray) or value.shape != spec.shape:
        raise Stale(f"captured {name} changed shape")
    if value.dtype != spec.dtype.np and not (value.dtype == np.float16 and
                                             spec.dtype.np == np.float32):
        raise Stale(f"captured {name} changed dtype")
    return np.array(value, dtype=spec.dtype.np, order="C", copy=True)
