"""Strips: consecutive loops over one long vector, each reading what the loops before it wrote
at or before its own element, run one cache-sized strip at a time; and runs reading at or after
it (a reverse pass), kept together for ``codegen.c.rotate``.

Layer: lower. Input: the kernel sequence (after row loops and banded loops, before the buffer
plan). Output: the same sequence with runs of such loops replaced by ``StripLoop`` kernels
(``codegen.c.strips`` prints them).

A recurrence along a vector makes one loop per stage: an RK4 step of the chain ODE (GradBench's
``ode``) reads each stage shifted by one element in the next, ``x * cat([1, y[:-1]])``, so the
fuser cannot put two stages in one loop, and each stage's loop streams its vectors through the
L2 cache (n = 10,000: seven arrays of 80 KB per step). Run strip by strip, every loop takes
its strip of ``strip`` elements before the next strip starts, and a strip's values are still
in the L1 cache when the next loop reads them. Each element is computed by the same
statements from the same values: the same bits.

It is exact when every value a loop reads from the run was written before it in the strip
order: a loop reads a buffer the run writes at element ``i + d`` for its element ``i``, with
``d <= 0``, at the writer's stride; each buffer the run writes has one store in the run,
which no loop of the run reads before; no loop reduces, accumulates or gathers (a gather
reads anywhere, a reduction's output is written by every strip). Strips run on one thread
(the strip order is the point): a run's loops lose their threads.

It pays when the loops read back what they write: a part of a run is made strips when each
of its loops but the last writes something a later one reads, and at least half the arrays
it touches are written and read again in it. The ODE's gradient stores each step's stages
for its reverse pass (a tape of 320 MB at n = 100,000): its copies to the tape, which feed
nothing in the run, joined to the stages' strips made it 10% slower (77-78 -> 86-88 ms).

A run whose loops read at or after their element (``d >= 0``: the reverse pass of such a
recurrence, whose adjoints of a shift read ahead) is exact from the last element down. In
strips from the last it was 1.5x slower (the tape streaming backwards); such a run is a
``StripLoop`` with ``ahead`` set, which ``codegen.c.rotate`` prints as one loop over vectors
from the last where it applies, and which is otherwise printed as its loops were, each in
turn over all its elements.

Measured, one thread: the ODE's primal (GradBench ``ode``) at n = 10,000, s = 10, 0.16-0.18
-> 0.104-0.107 ms; at n = 100,000, s = 100, 18.8-19.2 -> 13.7-14.4 ms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from .loopir import LoopKernel, touching

L1_BYTES = 1 << 15     # a strip's arrays together at most (the L1 data cache)
STRIP_ALIGN = 64       # elements: a strip's length is a multiple (whole vectors, cache lines)
MAX_RUN = 64           # loops in a run at most (its parts are searched in quadratic time)


@dataclass(frozen=True)
class StripLoop:
    """``kernels`` (each over ``(n,)``) on elements ``[s, s + strip)`` for each strip ``s``
    in turn, from the first. ``internal``: the stores, as (loop, store) positions, whose
    buffer is a temporary no kernel outside the run reads (``codegen.c.rotate`` keeps their
    values in registers). ``ahead``: the loops read at or after their element (exact from
    the last element down; never printed in strips, see the module docstring)."""

    kernels: list
    n: int
    strip: int
    internal: frozenset = frozenset()
    ahead: bool = False
    family: ClassVar[str] = "strips"

    def views(self) -> list:
        return [v for k in self.kernels for v in k.views()]

    def with_views(self, f) -> StripLoop:
        return StripLoop([k.with_views(f) for k in self.kernels], self.n, self.strip,
                         self.internal, self.ahead)


def strip_runs(kernels: list) -> list:
    """``kernels`` with each run that qualifies (module docstring) as a ``StripLoop``."""
    out: list = []
    run = _Run()
    for k in kernels:
        if run.takes(k):
            continue
        out += _made(run.kernels, run.ahead)
        run = _Run()
        if not run.takes(k):
            out.append(k)
    return _internal(out + _made(run.kernels, run.ahead))


def _internal(kernels: list) -> list:
    """``kernels`` with each ``StripLoop``'s ``internal`` stores found."""
    if not any(type(k) is StripLoop for k in kernels):
        return kernels
    readers = touching(kernels)
    out = []
    for j, k in enumerate(kernels):
        if type(k) is StripLoop:
            internal = frozenset((a, b) for a, inner in enumerate(k.kernels)
                                 for b, st in enumerate(inner.stores)
                                 if st.out.buffer.role == "temp" and
                                 readers[st.out.buffer] == {j})
            k = StripLoop(k.kernels, k.n, k.strip, internal, k.ahead)
        out.append(k)
    return out


class _Run:
    """A run being gathered: its loops, what they write (buffer -> the writer's offset) and
    read, and whether they read ahead (None until a loop reads a run's buffer shifted)."""

    def __init__(self):
        self.kernels: list = []
        self.n = None
        self.written: dict = {}
        self.read: set = set()
        self.ahead: bool | None = None

    def takes(self, k) -> bool:
        """Add ``k`` if the run stays exact with it (see the module docstring)."""
        if not _candidate(k) or len(self.kernels) == MAX_RUN or \
                (self.n is not None and k.shape[0] != self.n):
            return False
        reads = {v.buffer for v in k.loads}
        ahead = self.ahead
        for v in k.loads:
            if v.buffer not in self.written:
                continue
            if v.strides != (1,) or type(v.offset) is not int:
                return False
            shift = v.offset - self.written[v.buffer]
            if shift and ahead is (shift < 0):      # (the other direction than the run's)
                return False
            ahead = shift > 0 if shift else ahead
        writes = [st.out.buffer for st in k.stores]
        if len(set(writes)) < len(writes) or \
                any(b in self.written or b in self.read or b in reads for b in writes):
            return False      # (one writer of each buffer, one store: its offset is the shift's)
        self.n, self.ahead = k.shape[0], ahead
        self.kernels.append(k)
        self.read |= reads
        self.written.update((st.out.buffer, st.out.offset) for st in k.stores)
        return True


def _made(kernels: list, ahead: bool | None) -> list:
    """A run as ``StripLoop``s (its longest first part that pays, then the rest likewise),
    its loops as they were where strips would not pay (module docstring): one loop, arrays
    that fit in the L1 cache together, or fewer than half of them read back in the part."""
    out, i = [], 0
    pays = _chain if ahead else _strip
    while i < len(kernels):
        m = next((m for m in range(len(kernels), i + 1, -1) if pays(kernels[i:m])), None)
        if m is None:
            out.append(kernels[i])
            i += 1
        else:
            out.append(StripLoop(kernels[i:m], kernels[i].shape[0], pays(kernels[i:m]),
                                 ahead=bool(ahead)))
            i = m
    return out


def _chain(part: list) -> int:
    """``part``'s length when each of its loops but the last feeds one after it and its
    arrays do not fit in the L1 cache together, else 0 (a run reading ahead:
    ``codegen.c.rotate`` keeps the values fed in registers; below, the loops as they were
    cost little, and the run's C, which also holds them, would take longer to compile)."""
    for j, k in enumerate(part[:-1]):
        later = {v.buffer for k2 in part[j + 1:] for v in k2.loads}
        if not any(st.out.buffer in later for st in k.stores):
            return 0
    return part[0].shape[0] if part[0].shape[0] * _row(_arrays(part)) > L1_BYTES else 0


def _arrays(part: list) -> set:
    """The buffers ``part`` reads or writes along its loops (not broadcast)."""
    return {v.buffer for k in part for v in k.views() if any(v.strides)}


def _row(buffers: set) -> int:
    """Bytes of one element of each of ``buffers``."""
    return sum(b.dtype.itemsize for b in buffers)


def _strip(part: list) -> int:
    """The strip length of ``part`` run in strips, 0 where that would not pay."""
    if not _chain(part):
        return 0
    buffers = _arrays(part)
    kept = {st.out.buffer for k in part for st in k.stores} & \
        {v.buffer for k in part for v in k.loads}
    if 2 * len(kept) < len(buffers):
        return 0
    return max(STRIP_ALIGN, L1_BYTES // _row(buffers) // STRIP_ALIGN * STRIP_ALIGN)


def _candidate(k) -> bool:
    """A loop over one vector of a known length, writing each element once, densely."""
    return type(k) is LoopKernel and len(k.shape) == 1 and type(k.shape[0]) is int and \
        not k.reduces and not k.gathers and \
        all(not st.accumulate and st.out.strides == (1,) and st.out.window is None
            for st in k.stores) and math.prod(k.shape) > STRIP_ALIGN
