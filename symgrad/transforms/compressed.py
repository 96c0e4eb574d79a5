"""A sparse derivative's nonzeros, read from its compressed product.

Layer: transforms (it builds graph ops on tensors). Input: the compressed product (a
``Product``: its parts, flat tensors, and where each entry of the dense (colors, N) product
is among them), for every nonzero the entry that holds it (``at``, in CSR order), and the
ranges of the nonzeros that each output's rows hold. Output: the nonzeros' values, a tensor.

A range is read by strided slices where its entries repeat with a period: a bundle
adjustment's reprojection rows hold, for each of its p observations, the same 28 entries
(2 rows of 14), each at a fixed stride from the observation before (11 for a camera's
parameters, 3 for a point's, in the part of that row's color). Then the range is p rows of
the period's runs of consecutive entries of one part (a camera's parameters 0-7, 9-10, a
point's 3, ...), each a column range of the part read as (p, stride): loops that read the
parts row by row (the rows of the passes that computed them: ``lower.rows`` runs them in the
same loop over blocks of rows, the parts staying in a block's cache) where a gather from the
parts packed together would write them all out, read them back at 923,447 positions and read
the positions (bundle adjustment at ba1: 7.4 MB each). Any other range is such a gather.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

import numpy as np

from ..frontend.core.apply import apply, full
from ..frontend.core.tensor import Tensor
from .jacobians import graph_constant

MAX_PERIOD = 64     # entries a period holds at most (more: a gather, not so many slices)


@dataclass
class Product:
    """A compressed product: ``parts``, flat tensors; ``where(at)``, for positions ``c * N +
    i`` of the dense (colors, N) product, the part holding each (-1: an entry known to be
    zero) and its offset there; ``lengths``, the batch lengths its arrays have (their
    leading dims), the periods' candidate repeat counts."""

    parts: list
    where: Callable
    lengths: frozenset

    def packed(self) -> tuple:
        """(The parts and a zero, one flat tensor; where each part starts in it.)"""
        flat = self.parts + [self._zeros(1)]
        starts = np.cumsum([0] + [t.numel() for t in flat])
        return (apply("cat", *flat, axis=0) if len(flat) > 1 else flat[0]), starts

    def _zeros(self, n: int) -> Tensor:
        like = self.parts[0] if self.parts else None
        return full(like, 0.0, shape=(n,)) if like is not None else \
            graph_constant(np.zeros(n))


def dense(flat: Tensor) -> Product:
    """The product as one flat (colors, N) tensor."""
    return Product([flat], lambda at: (np.zeros_like(at), at), frozenset())


def nonzeros(product: Product, at: np.ndarray, into, nnz: int, bounds: list) -> Tensor:
    """The ``nnz`` values: entry ``at[k]`` of the product added to nonzero ``into[k]``
    (None: nonzero k itself); ``bounds``: consecutive (start, stop) ranges of the nonzeros,
    each read with a period where it has one."""
    part, offset = product.where(at)
    if into is not None and into.size != nnz:      # nonzeros that sum several entries
        flat, starts = product.packed()
        picked = apply("gather", flat, graph_constant(_packed(part, offset, starts)), axis=0)
        return apply("scatter_add", picked, graph_constant(into.astype(np.int64)), axis=0,
                     shape_to=(nnz,))
    if into is not None:
        order = np.argsort(into, kind="stable")
        part, offset = part[order], offset[order]
    pieces, gathered = [], []
    for lo, hi in bounds:
        if hi > lo:
            found = _periodic(product, part[lo:hi], offset[lo:hi])
            pieces.append(found if found is not None else (lo, hi))
    if any(isinstance(p, tuple) for p in pieces):
        flat, starts = product.packed()
        positions = _packed(part, offset, starts)
        gathered = [apply("gather", flat, graph_constant(positions[p[0]:p[1]]), axis=0)
                    if isinstance(p, tuple) else p for p in pieces]
        pieces = gathered
    if not pieces:
        return product._zeros(0)
    return pieces[0] if len(pieces) == 1 else apply("cat", *pieces, axis=0)


def _packed(part: np.ndarray, offset: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Positions in ``packed()``'s tensor (an entry known to be zero: its zero)."""
    return np.where(part >= 0, starts[part] + offset, starts[-2]).astype(np.int64)


def _periodic(product: Product, part: np.ndarray, offset: np.ndarray) -> Tensor | None:
    """The entries (``part``, ``offset``) as R repeats of a period of T entries, each entry
    of the period in the same part at a fixed stride from one repeat to the next: R rows of
    T strided slices. None if no length the product's arrays have is such an R."""
    n = part.size
    for R in sorted(product.lengths, reverse=True):
        if R < 2 or n % R or n // R > MAX_PERIOD:
            continue
        T = n // R
        p2, o2 = part.reshape(R, T), offset.reshape(R, T)
        step = o2[1] - o2[0]
        if (p2 != p2[0]).any() or (step < 0).any() or \
                (o2 != o2[0] + np.arange(R)[:, None] * step).any():
            continue
        columns = [_columns(product, R, *run) for run in _runs(p2[0], o2[0], step)]
        block = columns[0] if len(columns) == 1 else apply("cat", *columns, axis=1)
        return apply("reshape", block, shape_to=(n,))
    return None


def _runs(part: np.ndarray, offset: np.ndarray, step: np.ndarray) -> list:
    """The period's entries as runs (part, first offset, stride, length) of consecutive
    offsets in one part at one stride (a camera's parameters 0-7 in one row's part)."""
    runs: list = []
    for j, o, s in zip(part.tolist(), offset.tolist(), step.tolist()):
        if runs and runs[-1][0] == j and runs[-1][2] == s and \
                runs[-1][1] + runs[-1][3] == o and (j < 0 or s > 0):
            runs[-1][3] += 1
        else:
            runs.append([j, o, s, 1])
    return runs


def _columns(product: Product, R: int, j: int, o: int, step: int, n: int) -> Tensor:
    """(R, n): entries o + r * step + k (k < n) of part ``j`` (-1: zeros); a part of R rows
    of ``step`` read as that matrix's columns o..o + n - 1."""
    if j < 0:
        return apply("reshape", product._zeros(R * n), shape_to=(R, n))
    src = product.parts[j]
    if step and src.numel() == R * step and o + n <= step:
        rows = apply("reshape", src, shape_to=(R, step))
        return rows if n == step else apply("slice", rows, starts=(0, o),
                                             stops=(R, o + n), steps=(1, 1))
    cols = []
    for k in range(n):
        if step == 0:
            one = apply("slice", src, starts=(o + k,), stops=(o + k + 1,), steps=(1,))
            col = apply("expand", one, shape_to=(R,))
        else:
            col = apply("slice", src, starts=(o + k,), stops=(o + k + (R - 1) * step + 1,),
                        steps=(step,))
        cols.append(apply("reshape", col, shape_to=(R, 1)))
    return cols[0] if n == 1 else apply("cat", *cols, axis=1)
