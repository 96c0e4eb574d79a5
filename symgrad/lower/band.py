"""Banded loops: a loop whose innermost index enters its values only through equality
tests of an ``arange`` constant is computed once per row off the band and exactly on it.

Layer: lower. Input: the kernel sequence and the program's constants. Output: the same
sequence with each such ``LoopKernel`` wrapped in a ``BandKernel`` (``codegen.c.band``
prints it).

Why: a dense Jacobian or Hessian by forward mode pushes the columns of an identity, and its
(n, n) result is computed element by element from tests ``i == j + k`` (``j``: the row,
``i``: an ``arange`` constant read along the innermost loop). Rosenbrock's Hessian at
N = 1000 was 27 operations per element, 1,000,000 elements, for a tridiagonal matrix. In a
row, every test is false but at the one index where its ``arange`` value equals the other
side (a value of the row), so the values off those indices are one number per row: the
loop's statements with the tests false, computed once and stored along the row (a fill),
then the statements again at each index a test hits, exactly (every test evaluated), over
the fill. The same numbers as the plain loop, signs of zeros and NaNs included: off the
band each element's statements are the row's with the tests false, which is what the fill
computed.

A loop qualifies when it reduces nothing, gathers nothing, stores without accumulating along
a row that every store walks, has at least ``BAND_MIN`` elements in a row, and each load
that moves along the row is an integer constant counting up by one there (the columns'
``arange``), moving along nothing else, read only by ``eq``/``ne`` tests against a load that
does not move along the row or a literal. Such a load may be padded over the rows (a
slice's gradient): in a row outside its window it reads its fill, the same at every index,
and its tests are then values of the row like any other (no hit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..dims import Dim
from .loopir import Literal, LoopKernel

BAND_MIN = 64          # elements in a row: fewer, and the plain loop costs no more


@dataclass
class BandKernel:
    """``loop`` computed row by row: off the band once per row, then at each of the
    ``hits`` (per test: its statement's position in the body, the ``arange`` load's
    position among the loads, the operand it compares the ``arange`` with, and the
    ``arange``'s first value)."""

    loop: LoopKernel
    hits: tuple
    family: ClassVar[str] = "band"

    def views(self) -> list:
        return self.loop.views()

    def with_views(self, f) -> BandKernel:
        return BandKernel(self.loop.with_views(f), self.hits)


def banded(kernels: list, consts: list) -> list:
    """``kernels`` with each loop that qualifies as a ``BandKernel``."""
    values = {id(b): v for b, v in consts}
    out = []
    for k in kernels:
        hits = _hits(k, values) if type(k) is LoopKernel else None
        out.append(BandKernel(k, hits) if hits else k)
    return out


def _hits(k: LoopKernel, values: dict) -> tuple | None:
    """The hits of loop ``k`` if it qualifies (see the module docstring), else None."""
    d = len(k.shape) - 1
    if d < 1 or any(isinstance(n, Dim) for n in k.shape) or k.shape[d] < BAND_MIN or \
            k.reduces or k.gathers or any(s.accumulate or not s.out.strides[d]
                                          for s in k.stores):
        return None
    starts = {}
    for i, v in enumerate(k.loads):
        if v.strides[d]:
            start = _arange(v, d, k.shape[d], values)
            if start is None:
                return None
            starts[i] = start
    if not starts or any(s.value in _loads(starts) for s in k.stores):
        return None
    hits = []
    for pos, s in enumerate(k.body):
        band = [a for a in s.args if a in _loads(starts)]
        if not band:
            continue
        if s.expr.op not in ("eq", "ne") or len(s.args) != 2 or len(band) != 1 or \
                s.expr.operand.is_floating:
            return None
        other = s.args[1] if s.args[0] == band[0] else s.args[0]
        if not (isinstance(other, Literal) or isinstance(other, tuple) and
                other[1] not in starts):
            return None
        hits.append((pos, band[0][1], other, starts[band[0][1]]))
    return tuple(hits)


def _loads(starts: dict) -> set:
    return {("load", i) for i in starts}


def _arange(v, d: int, n: int, values: dict) -> int | None:
    """The first value of load ``v`` if it reads an integer constant counting up by one
    along dim ``d`` (and moving along no other dim, no window), else None."""
    arr = values.get(id(v.buffer))
    if arr is None or v.buffer.role != "const" or v.strides[d] < 0 or \
            v.window is not None and v.window[d] != (0, n) or \
            arr.dtype.kind not in "iu" or any(s for j, s in enumerate(v.strides) if j != d):
        return None
    seq = np.asarray(arr).ravel()[v.offset + np.arange(n) * v.strides[d]]
    first = int(seq[0])
    return first if (seq == first + np.arange(n)).all() else None
