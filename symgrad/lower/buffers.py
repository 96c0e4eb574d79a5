"""The buffer plan: where each temporary lives in the one workspace of a program.

Layer: lower. Input: the kernels in execution order, their temporaries unplaced. Output: the
kernels with every temporary at a byte offset, and the workspace size. A temporary is live from
the first kernel that touches it to the last; two temporaries whose lives overlap never share
bytes. Temporaries that do share bytes (at different times) are marked ``shared``: the C then
declares them without ``restrict`` (different pointers to one object).

Two placements, chosen by the number of temporaries:

* up to ``EXACT_LIMIT``: first fit by decreasing size (largest first, each at the lowest offset
  free for its whole life). It packs tightest, but each placement scans every placed temporary
  whose life overlaps: quadratic, fine for the few dozen temporaries of an ordinary program.
* above: a linear scan in time (each temporary, at its first use, takes the lowest free hole
  that fits; its bytes are freed after its last use; neighbouring holes merge). O(n log n) for
  the tens of thousands of temporaries of an unrolled loop's gradient, where first fit by size
  took seconds (0.2 s per thousand temporaries and growing).
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from ..dims import Dim, provably
from .loopir import Buffer, ScalarStmt, View

EXACT_LIMIT = 512


def plan_buffers(kernels: list) -> tuple[list, int]:
    """Place the temporaries (see the module docstring); returns the kernels with every
    temporary at its offset, and the workspace size in bytes."""
    first: dict = {}
    last: dict = {}
    touch: list = []           # the kernels that touch a temporary
    for i, k in enumerate(kernels):
        if type(k) is ScalarStmt and not any(type(a) is View for a in k.args):
            continue
        for view in k.views():
            b = view.buffer
            if b.role == "temp":
                first.setdefault(b, i)
                last[b] = i
                if not touch or touch[-1] != i:
                    touch.append(i)
    if any(isinstance(b.size, Dim) for b in first):
        offsets, total, shared = _call_time_sizes(first, last)
    else:
        place = _first_fit_decreasing if len(first) <= EXACT_LIMIT else _linear_scan
        offsets = place(first, last)
        total = max((offsets[b] + b.nbytes for b in offsets), default=0)
        shared = _sharing(offsets)
    # (the constructor, not dataclasses.replace: ~5 us a buffer, 10^4 of them)
    new = {b: Buffer(b.role, b.index, b.dtype, b.size, offsets[b], b in shared)
           if type(b) is Buffer else replace(b, offset=offsets[b], shared=b in shared)
           for b in offsets}
    kernels = list(kernels)
    for i in touch:            # the others' buffers all stay as they are
        kernels[i] = _remap(kernels[i], new)
    return kernels, total


def _call_time_sizes(first: dict, last: dict) -> tuple[dict, object, set]:
    """The plan of shape-generic code, whose sizes are polynomials in call-time sizes
    (``dims.Dim``): the fixed-size temporaries first (first fit by decreasing size), then
    the others above them, each at the lowest candidate offset (the bottom, or where another
    ends) that is free for every size; the workspace size is a polynomial too. Two
    temporaries whose ranges may overlap (at different times) are both ``shared``."""
    fixed = {b: i for b, i in first.items() if not isinstance(b.size, Dim)}
    offsets = _first_fit_decreasing(fixed, last)
    end = max((offsets[b] + b.nbytes for b in offsets), default=0)
    shared = _sharing(offsets)
    placed: list = []           # (start, end, first kernel, last kernel)
    base = end
    for b in sorted(set(first) - set(fixed), key=lambda b: (first[b], b.index)):
        nbytes = b.nbytes
        busy = [(s, e) for s, e, f, l_ in placed if not (l_ < first[b] or last[b] < f)]
        at = next((cand for cand in [base] + [e for _, e, _, _ in placed]
                   if provably(cand + nbytes, "<=", end) and all(
                       provably(cand + nbytes, "<=", s) or provably(e, "<=", cand)
                       for s, e in busy)), None)
        if at is None:          # no room below the end for every size: at the end
            at, end = end, end + nbytes
        offsets[b] = at
        placed.append((at, at + nbytes, first[b], last[b]))
    shared |= {b for b in offsets if isinstance(b.size, Dim) and any(
        c is not b and not (provably(offsets[b] + b.nbytes, "<=", offsets[c]) or
                            provably(offsets[c] + c.nbytes, "<=", offsets[b]))
        for c in offsets if isinstance(c.size, Dim))}
    return offsets, end, shared


def _first_fit_decreasing(first: dict, last: dict) -> dict:
    placed: list = []          # (start byte, end byte, first kernel, last kernel)
    offsets: dict = {}
    for b in sorted(first, key=lambda b: (-b.size * b.dtype.itemsize, b.index)):
        nbytes = b.nbytes
        busy = sorted((s, e) for s, e, f, l_ in placed if not (l_ < first[b] or last[b] < f))
        at = 0
        for s, e in busy:
            if at + nbytes <= s:
                break
            at = max(at, e)
        offsets[b] = at
        placed.append((at, at + nbytes, first[b], last[b]))
    return offsets


def _linear_scan(first: dict, last: dict) -> dict:
    holes = _Holes()
    ending: dict = {}          # kernel -> the temporaries whose life ends there
    for b, i in last.items():
        ending.setdefault(i, []).append(b)
    starting: dict = {}
    for b, i in first.items():
        starting.setdefault(i, []).append(b)
    offsets: dict = {}
    for i in sorted(set(starting) | set(ending)):
        for b in sorted(starting.get(i, ()), key=lambda b: b.index):
            offsets[b] = holes.take(b.nbytes)
        for b in ending.get(i, ()):
            holes.give(offsets[b], b.nbytes)
    return offsets


class _Holes:
    """Free byte ranges of a workspace that grows at its end: ``take`` the lowest hole that
    fits (or the end), ``give`` a range back (merged with the holes beside it)."""

    def __init__(self) -> None:
        self.starts: list = []     # sorted hole starts
        self.size: dict = {}       # hole start -> its size
        self.end = 0               # the workspace's size so far

    def take(self, nbytes: int) -> int:
        for at in self.starts:     # lowest first; holes are few (neighbours merge)
            size = self.size[at]
            if size >= nbytes:
                del self.size[at]
                self.starts.remove(at)
                if size > nbytes:
                    self._add(at + nbytes, size - nbytes)
                return at
        at, self.end = self.end, self.end + nbytes
        return at

    def give(self, at: int, nbytes: int) -> None:
        k = bisect.bisect_left(self.starts, at)
        if k < len(self.starts) and self.starts[k] == at + nbytes:    # merge the next hole
            nbytes += self.size.pop(self.starts.pop(k))
        if k and self.starts[k - 1] + self.size[self.starts[k - 1]] == at:   # and the previous
            at = self.starts[k - 1]
            nbytes += self.size[at]
            self.size[at] = nbytes
            return
        self._add(at, nbytes)

    def _add(self, at: int, nbytes: int) -> None:
        bisect.insort(self.starts, at)
        self.size[at] = nbytes


def _sharing(offsets: dict) -> set:
    """The temporaries whose byte ranges overlap another's (at some other time)."""
    shared: set = set()
    spans = sorted((offsets[b], offsets[b] + max(b.size * b.dtype.itemsize, 1), b.index, b)
                   for b in offsets)
    reach, owner = -1, None       # the furthest end seen so far, and whose it is
    for s, e, _, b in spans:
        if s < reach:
            shared.update((b, owner))
        if e > reach:
            reach, owner = e, b
    return shared


def _remap(k, new: dict):
    """``k`` with every View's buffer replaced by its placed one."""
    def v(view):
        if type(view) is View:      # (the constructor: dataclasses.replace was ~5 us a view)
            buf = new.get(view.buffer)
            if buf is not None:
                return View(buf, view.offset, view.shape, view.strides, view.window,
                            view.fill)
        elif isinstance(view, View) and view.buffer in new:
            return view.rebased(new[view.buffer], view.offset)
        return view
    return k.with_views(v)
