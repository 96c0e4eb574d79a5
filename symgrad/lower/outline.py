"""Outlining: the long runs of identical blocks of small kernels -> one body, called per block.

Layer: lower (a pass over a placed ``Program``'s kernels, after the buffer plan). Input: the
kernels in execution order. Output: the same program with each run of at least ``MIN_REPS``
consecutive blocks that do the same thing on other data replaced by ``OutlineCall`` kernels,
one per block, sharing one ``Outline`` body; consecutive calls that differ only in the addresses
they pass become one ``OutlineLoop`` (a C loop over a table of the addresses).

Why: a Python loop that the trace unrolls (an RK4 integrator of 400 steps written as a ``for``
loop) lowers to tens of thousands of function-scope statements that repeat with a period of a
few dozen; the C compiler's time grows with the volume of C whatever the flags (measured on an
unrolled RK4 unit: 1.45 s at -O1, 1.12 s at -O0), and so does code generation's. Printing the
block once, as a function, and a call per step divides both by the number of steps.

Outlining rather than re-rolling into a C loop: a call passes each block's own pointers and
values, so nothing has to be affine in the step (the buffer plan reuses workspace bytes
irregularly: after placement, most per-step views are not). A value a block computes for later
code goes to a slot of its own in the workspace (added after the buffer plan's bytes), and a
later block reads it from there: no C local lives from one call to the next, which also keeps
the calls' arguments addresses, so that consecutive calls become a loop over a table. (Calls
that passed and returned locals compiled slower than the code they replaced: measured 0.5 s
for rk4_100's calls, all spills and register allocation, against 0.11 s with slots and
tables.)

How: ``repeats.find_runs`` finds the runs (and says how); each run's blocks become calls of the
first block's kernels renamed over parameters.

Correct by construction: the signature holds everything the block's C depends on except the
names it abstracts (literals by their exact text, so ``-0.0`` is not ``0.0``), so calling the
body with block r's pointers and values runs exactly block r's statements, in order, with the
same arithmetic: the results are the same bits as the unrolled code's compiled alike. (The
blocks' functions are compiled in the main translation unit, ``templates/module.c.j2``: they
run once per block, all of an unrolled LSTM's work, 5x slower at the cold units' -O1; there a
small loop calling exp or tanh is vectorized with glibc's vector math, within 4 ulp of the
scalar libm that the unrolled copy of that loop in a cold unit calls.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from .loopir import LoopKernel, Scalar, ScalarStmt, View
from .repeats import MIN_REPS, Signature, find_runs, scalars_read

# A program of fewer kernels is left as it is. Outlining trades run time for compile time: even
# with blocks of MIN_BLOCK kernels a call costs a little more than the unrolled statements,
# which address everything from ``work`` with constant offsets (measured, alternating runs,
# medians of 7 x 2000 calls: the unrolled RK4 of 100 steps 11.8 -> 12.6 us a call, the
# benchmark suite's 200-step ODE on scalars 19.3 -> 19.7-20.1 us; at 400 steps no difference
# shows), while the first call gains about 80 us of code generation and gcc per kernel
# outlined (400 steps, 36k kernels: 6.3 -> 3.2 s; 100 steps: 1.6 -> 1.0 s). Below this size
# the unrolled program builds in about 2 s and keeps all of its speed.
MIN_KERNELS = 32768
# ... or of C lines (``volume``): loop kernels print several lines each, and an unrolled LSTM
# of 1,023 steps (13.3k kernels, ~200k lines of C) took gcc 20 s unoutlined.
MIN_VOLUME = 32768


def volume(kernels: list) -> int:
    """About how many lines of C the kernels print: one a scalar statement, a loop's loads,
    statements and stores and its loop lines, a dozen for any other kernel."""
    total = 0
    for k in kernels:
        if isinstance(k, ScalarStmt):
            total += 1
        elif isinstance(k, LoopKernel):
            total += 6 + len(k.loads) + len(k.body) + len(k.stores)
        else:
            total += 12
    return total


@dataclass(eq=False)
class Outline:
    """The body of the calls of one run: kernels over parameter buffers (``role`` "param",
    named ``p<k>``), the scalars it reads from outside named ``a<k>`` (``inputs``; those of a
    ``by_address`` column arrive as a pointer ``q<k>`` to a result slot), the scalars it
    defines named ``v<k>``; ``results``: the ``v<k>`` it writes through ``r<j>``, in order."""

    kernels: list
    params: list                # Buffers (role "param"), one per pointer argument
    writable: list              # per param: whether the body may write it (not an input)
    inputs: list                # Scalars a<k>
    results: list               # Scalars v<k> written out, in order
    by_address: list            # per input: passed as the address of a result slot
    reps: int                   # calls (blocks) in the run
    # set once the calls are made (``_layout``):
    in_work: list = field(default_factory=list)   # per param: a temporary in every call
    # per param in work: (its group, its bytes after the group's first): the params whose
    # addresses differ by the same bytes in every call share one offset of the row (``_layout``)
    groups: list = field(default_factory=list)
    disjoint: bool = False      # no two params' elements overlap in any call (``restrict``)
    wide: bool = False          # an offset the calls pass needs 64 bits


@dataclass
class OutlineCall:
    """Block ``rep`` of its outline's run: the body called on ``pointers`` (``View``s whose
    buffer and offset are the address passed; shape ``()``) and ``inputs`` ((Scalar, None):
    the local passed; (Scalar, byte offset): the slot in ``work`` it is read from), having
    stored ``stashes`` ((local, byte offset)) to their slots first; its results written to
    their slots (``results``: (Scalar, byte offset) each); ``loads``: the results later
    statements read as locals, loaded from their slots after the call."""

    outline: Outline
    rep: int
    pointers: list
    inputs: list
    stashes: list
    results: list
    loads: list
    size: int                  # the kernels it stands for
    family: ClassVar[str] = "outline"

    def views(self) -> list:
        return list(self.pointers)

    def with_views(self, f) -> OutlineCall:
        return OutlineCall(self.outline, self.rep, [f(v) for v in self.pointers], self.inputs,
                           self.stashes, self.results, self.loads, self.size)


@dataclass
class OutlineLoop:
    """Consecutive calls of one outline run as one C loop over a table of what differs
    between them: the calls pass the same locals, point into the same argument buffers (or
    into ``work``), and neither stash nor load a local (``uniform``)."""

    outline: Outline
    calls: list
    size: int                  # the kernels it stands for
    family: ClassVar[str] = "outline"

    def views(self) -> list:
        return [v for call in self.calls for v in call.pointers]

    def with_views(self, f) -> OutlineLoop:
        return OutlineLoop(self.outline, [call.with_views(f) for call in self.calls],
                           self.size)


def uniform(a: OutlineCall, b: OutlineCall) -> bool:
    """Whether calls ``a`` and ``b`` of one outline can be rows of one ``OutlineLoop``."""
    if a.stashes or b.stashes or a.loads or b.loads:
        return False
    for (s, slot), (t, _) in zip(a.inputs, b.inputs):
        if slot is None and s != t:
            return False
    for v, w in zip(a.pointers, b.pointers):
        if v.buffer is not w.buffer and (v.buffer.role != "temp" or w.buffer.role != "temp"):
            return False
    return True


def _looped(calls: list) -> list:
    """``calls`` (one run's, in order) with each stretch of at least MIN_REPS uniform ones
    made one ``OutlineLoop``."""
    out, stretch = [], []
    for call in calls + [None]:
        if stretch and (call is None or not uniform(stretch[0], call)):
            if len(stretch) >= MIN_REPS:
                out.append(OutlineLoop(stretch[0].outline, stretch,
                                       sum(c.size for c in stretch)))
            else:
                out += stretch
            stretch = []
        if call is not None:
            stretch.append(call)
    return out


def outline(kernels: list, workspace: int) -> tuple[list, int]:
    """``kernels`` with the runs of repeated blocks replaced by calls (module docstring), and
    the workspace in bytes with the calls' result slots after ``workspace``'s."""
    if not isinstance(workspace, int) or \
            len(kernels) < MIN_KERNELS and volume(kernels) < MIN_VOLUME:
        return kernels, workspace
    runs = find_runs(kernels)
    if not runs:
        return kernels, workspace
    return _Calls(kernels, runs, workspace).program()


class _Calls:
    """The calls of the runs found, and the slots of their results: a value a block computes
    for later code is written to a slot in the workspace, and a later call reads it from there
    (through its address: no C local lives from one call to another); a statement that is not
    in a call reads it as a local loaded from the slot after the call that computes it."""

    def __init__(self, kernels: list, runs: list, workspace: int):
        self.kernels, self.runs = kernels, runs
        self.slots: dict = {}        # scalar name -> byte offset of its slot
        self.stashed: set = set()     # the locals stored to a slot before the call reading it
        self.end = workspace
        for _, _, sigs in runs:
            # the body writes out every value some block's later code reads
            escaping = tuple(sorted(set().union(*(sig.escaping for sig in sigs))))
            for sig in sigs:
                sig.escaping = escaping
                for scalar in sig.outputs():
                    self.slots[scalar.name] = self._slot(scalar)
        self.covered = np.zeros(len(kernels), bool)
        for first, size, sigs in runs:
            self.covered[first:first + size * len(sigs)] = True
        self.as_local = {n for i in np.flatnonzero(~self.covered).tolist()
                         for n in scalars_read(kernels[i]) if n in self.slots}

    def _slot(self, scalar: Scalar) -> int:
        size = scalar.dtype.itemsize
        offset = -(-self.end // size) * size
        self.end = offset + size
        return offset

    def program(self) -> tuple[list, int]:
        replaced = {}
        for first, size, sigs in self.runs:
            # an input some block reads from a result slot is read from a slot by all: a
            # local passed there is stashed in a slot of its own first
            by_address = [any(sig.inputs[j].name in self.slots for sig in sigs)
                          for j in range(len(sigs[0].inputs))]
            for sig in sigs:
                for scalar, by in zip(sig.inputs, by_address):
                    if by and scalar.name not in self.slots:
                        self.slots[scalar.name] = self._slot(scalar)
                        self.stashed.add(scalar.name)
            body = Outline(*sigs[0].renamed(), by_address=by_address, reps=len(sigs))
            calls = [self._call(body, r, sig, size) for r, sig in enumerate(sigs)]
            _layout(body, calls)
            at = first
            for kernel in _looped(calls):
                replaced[at] = kernel
                at += kernel.size
        out, i = [], 0
        while i < len(self.kernels):
            call = replaced.get(i)
            out.append(self.kernels[i] if call is None else call)
            i += 1 if call is None else call.size
        return out, -(-self.end // 64) * 64

    def _call(self, body: Outline, r: int, sig: Signature, size: int) -> OutlineCall:
        slots = self.slots
        inputs = [(s, slots[s.name] if a else None)
                  for s, a in zip(sig.inputs, body.by_address)]
        stashes = [(s, slot) for s, slot in inputs if s.name in self.stashed]
        results = [(s, slots[s.name]) for s in sig.outputs()]
        loads = [s for s, _ in results if s.name in self.as_local]
        return OutlineCall(body, r, [View(b, off, (), ()) for b, off in sig.pointers], inputs,
                           stashes, results, loads, size)


def _layout(body: Outline, calls: list) -> None:
    """What the body's C needs to know of all its calls: which params are temporaries in every
    call (addressed in ``work``), whether the params' elements are disjoint in every call (the
    buffer plan may give two temporaries of one block the same bytes at different times: then
    they are not), and whether some offset a call passes needs 64 bits."""
    extents = _extents(body)
    body.in_work = [all(c.pointers[j].buffer.role == "temp" for c in calls)
                    for j in range(len(body.params))]
    body.groups = _groups(body, calls)
    body.disjoint = True
    largest = 0
    for call in calls:
        spans = []
        for v, (lo, hi) in zip(call.pointers, extents):
            b = v.buffer
            largest = max(largest, b.offset + (v.offset + hi + 1) * b.dtype.itemsize)
            if b.role == "temp" and lo <= hi:
                size = b.dtype.itemsize
                spans.append((b.offset + (v.offset + lo) * size,
                              b.offset + (v.offset + hi + 1) * size))
        spans.sort()
        if any(a[1] > b[0] for a, b in zip(spans, spans[1:])):
            body.disjoint = False
        largest = max([largest] + [slot for _, slot in call.inputs if slot is not None] +
                      [slot for _, slot in call.results])
    body.wide = largest >= 2 ** 31


def _groups(body: Outline, calls: list) -> list:
    """Per param: None (not in work), or (group, bytes after the group's first param): params
    whose addresses differ by the same bytes in every call are one group, addressed from one
    offset of the row. (An unrolled step's temporaries often sit at fixed distances from each
    other; then the body addresses them from one register, as the unrolled code addresses
    everything from ``work``: a pointer per param spilled around every libm call, and the calls
    ran 10-20% slower than the unrolled code.)"""
    leads: dict = {}       # the addresses of a group's first param, relative to call 0's
    groups = []
    for j, in_work in enumerate(body.in_work):
        if not in_work:
            groups.append(None)
            continue
        at = [c.pointers[j].buffer.offset + c.pointers[j].offset * body.params[j].dtype.itemsize
              for c in calls]
        key = tuple(a - at[0] for a in at)
        lead = leads.get(key)
        if lead is None:
            lead = leads[key] = (len(leads), at[0])
        groups.append((lead[0], at[0] - lead[1]))
    return groups


def _extents(body: Outline) -> list:
    """Per param of ``body``: (lowest, highest) element its kernels touch, relative to the
    address passed ((0, -1): none)."""
    found = {id(b): [None, None] for b in body.params}
    for k in body.kernels:
        for v in k.views():
            if any(n == 0 for n in v.shape):
                continue
            lo = v.offset + sum(min(0, (n - 1) * st) for n, st in zip(v.shape, v.strides))
            hi = v.offset + sum(max(0, (n - 1) * st) for n, st in zip(v.shape, v.strides))
            span = found[id(v.buffer)]
            span[0] = lo if span[0] is None else min(span[0], lo)
            span[1] = hi if span[1] is None else max(span[1], hi)
    return [(0, -1) if found[id(b)][0] is None else tuple(found[id(b)]) for b in body.params]
