"""A sparse derivative's compressed product, and its nonzeros read from it.

Layer: transforms (it builds graph ops on tensors). ``product`` makes the compressed product
of a function of tensors (one JVP or VJP per color; up to ``UNROLL_COLORS`` colors, each a
pass of its own over the function's arrays, its seed a constant mask, a seed that misses an
output or a variable entirely no pass over it; past that, the colors batched by ``vmap``),
``star`` a Hessian's. ``nonzeros`` reads the values: input, the compressed product (a
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

from ..frontend.core import grad_mode
from ..frontend.core.apply import apply, full
from ..frontend.core.engine import differentiable, push_forward_each, run_backward
from ..frontend.core.tensor import Tensor
from ..pytree import flatten
from .coloring import n_colors
from .forward import jvp_call, leaves_of, vjp_call
from .jacobians import chunks, graph_constant, hvp_call, regroup, with_args
from .vmap import vmap_call

MAX_PERIOD = 64     # entries a period holds at most (more: a gather, not so many slices)
UNROLL_COLORS = 16  # colors computed a pass each (more: batched by vmap)


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


def product(F: Callable, xs: list, mode: str, colors: np.ndarray, name: str) -> Product:
    """The compressed derivative of ``F`` (a function of the tensors ``xs`` returning a
    list of tensors) at ``xs``: one JVP per color of ``xs``' elements (``mode`` "forward")
    or one VJP per color of the outputs' elements ("reverse")."""
    p = n_colors(colors)
    if p <= UNROLL_COLORS:
        return _unrolled(F, xs, mode, colors, p)
    shapes = [tuple(x.shape) for x in xs]
    seeds = _seeds(colors, p, xs[0].dtype)
    if mode == "forward":
        def one(s):
            return _flat(jvp_call(F, tuple(xs), tuple(chunks(s, shapes, 0)), False, name)[1])
    else:
        out, pullback = vjp_call(F, tuple(xs), False, name)

        def one(s):
            return _flat(pullback(chunks(s, [tuple(o.shape) for o in out], 0)))
    batched = vmap_call(one, 0, 0, None, (seeds,), {}, name)
    return dense(apply("reshape", batched, shape_to=(batched.numel(),)))


def _unrolled(F: Callable, xs: list, mode: str, colors: np.ndarray, p: int) -> Product:
    """The compressed derivative, each color's product a pass of its own, its seed a mask
    per variable (forward) or output (reverse); its parts are each color's product of each
    output (forward) or variable (reverse), one that is zero (no seed reaches it) left
    out."""
    parts = []
    with grad_mode.enable_grad():
        xs = [differentiable(x) for x in xs]
        outs = F(*xs)
        if mode == "forward":
            sets = [_masks(xs, colors, c) for c in range(p)]
            parts = push_forward_each(outs, xs, sets)
            pieces = outs
        else:
            live = [o.requires_grad and o.dtype.is_differentiable for o in outs]
            for c in range(p):
                roots = [(o, s) for o, s, ok in zip(outs, _masks(outs, colors, c), live)
                         if ok and s is not None]
                parts.append(run_backward(roots, retain_graph=True, create_graph=True,
                                          inputs=xs) if roots else [None] * len(xs))
            pieces = xs
    starts = np.cumsum([0] + [t.numel() for t in pieces])
    which = np.full((p, len(pieces)), -1, np.int64)   # the part of each (color, piece)
    flat = []
    for c, part in enumerate(parts):
        for j, t in enumerate(part):
            if t is not None:
                which[c, j] = len(flat)
                flat.append(apply("reshape", t, shape_to=(t.numel(),)))

    piece = np.repeat(np.arange(len(pieces)), np.diff(starts))

    def where(at: np.ndarray) -> tuple:
        c, i = np.divmod(at, starts[-1]) if starts[-1] else (at, at)
        j = piece[i]
        return which.ravel()[c * len(pieces) + j], i - starts[j]
    lengths = frozenset(int(t.shape[0]) for t in pieces if t.ndim)
    return Product(flat, where, lengths)


def _masks(tensors: list, colors: np.ndarray, c: int) -> list:
    """Color ``c``'s seed over each of ``tensors`` (their elements in order are ``colors``'):
    1 where an element has color ``c``, else 0; None for a tensor with no such element."""
    out, start = [], 0
    for t in tensors:
        n = t.numel()
        mine = colors[start:start + n]
        start += n
        hit = mine == c
        if not hit.any():
            out.append(None)
        elif hit.all():
            out.append(full(t, 1.0))
        else:
            same = apply("eq", graph_constant(mine.astype(np.int32)),
                         graph_constant(np.array(c, np.int32)))
            out.append(apply("reshape", apply("cast", same, dtype=t.dtype),
                             shape_to=tuple(t.shape)))
    return out


def _seeds(colors: np.ndarray, p: int, dtype) -> Tensor:
    """The (colors, n) 0/1 seed rows ``color[j] == c``, as graph (no p*n constant)."""
    c = apply("reshape", graph_constant(np.arange(p, dtype=np.int64)), shape_to=(p, 1))
    j = apply("reshape", graph_constant(colors.astype(np.int64)), shape_to=(1, len(colors)))
    return apply("cast", apply("eq", c, j), dtype=dtype)


def _flat(tree_value) -> Tensor:
    """The leaves of ``tree_value`` flattened and concatenated."""
    leaves, _ = leaves_of(tree_value)
    parts = [apply("reshape", t, shape_to=(t.numel(),)) for t in leaves]
    return parts[0] if len(parts) == 1 else apply("cat", *parts, axis=0)


def star(fn: Callable, args: tuple, nums: tuple, colors: np.ndarray, name: str) -> Product:
    """A Hessian's compressed product: one Hessian-vector product per color of a star
    coloring of ``args[nums]``' elements, batched by vmap (colors, variables)."""
    p = n_colors(colors)
    chosen = tuple(args[i] for i in nums)
    trees = [flatten(c)[1] for c in chosen]
    shapes = [tuple(t.shape) for c in chosen for t in leaves_of(c)[0]]
    part = with_args(fn, args, nums)
    seeds = _seeds(colors, p, leaves_of(chosen[0])[0][0].dtype)

    def one(s):
        return _flat(hvp_call(part, chosen, regroup(chunks(s, shapes, 0), trees), name)[1])
    batched = vmap_call(one, 0, 0, None, (seeds,), {}, name)
    return dense(apply("reshape", batched, shape_to=(batched.numel(),)))
