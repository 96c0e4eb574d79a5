"""Batching rules: how an op applies to operands that carry one more, leading, batch dimension.

Layer: ops (it knows no graph and no tensor: rules build with the ``Builder`` VJP rules use).
Input: nothing. Output: the rule kinds op definitions choose from (``OpDef.batch``).

``vmap`` (``transforms.batching``) replays a traced per-example graph on batched tensors; for
an op with at least one batched operand it calls the op's rule
``rule(b, name, args, batched, size, **attrs)``: ``args`` are the operands, ``batched[k]``
whether operand ``k`` carries the batch dimension, always in front (axis 0, of length
``size``; the replay moves a batch axis to the front once, where it enters), and the rule
returns the batched result, its batch dimension in front too. One position for the batch
dimension keeps every rule a few lines (JAX lets it float to save transposes; here a
``permute`` is a view that lowering folds into the loops that read it).

The rules are graph ops applied to whole batches (a reshape, a shifted axis attribute, a
batched matmul): never a loop over the examples.
"""

from __future__ import annotations

import math


def front(b, x, batched: bool, size: int):
    """``x`` with a leading batch dimension: an unbatched operand is broadcast (a view)."""
    return x if batched else b.op("expand", x, shape_to=(size,) + tuple(x.shape))


def _aligned(b, x, batched: bool, rank: int):
    """A batched operand of an elementwise op with singleton dims after the batch dimension,
    up to ``rank`` per-example dims, so that NumPy broadcasting lines it up (an unbatched one
    already aligns at its trailing dims)."""
    if not batched or x.ndim - 1 == rank:
        return x
    return b.op("reshape", x, shape_to=(x.shape[0],) + (1,) * (rank - x.ndim + 1)
                + tuple(x.shape[1:]))


def elementwise(b, name, args, batched, size, **attrs):
    rank = max(x.ndim - bool(k) for x, k in zip(args, batched))
    return b.op(name, *[_aligned(b, x, k, rank) for x, k in zip(args, batched)], **attrs)


def reduction(b, name, args, batched, size, *, axes):
    return b.op(name, args[0], axes=tuple(a + 1 for a in axes))


def _shifted(attrs: dict, size: int) -> dict:
    """Attributes of an op on batched operands: an ``axis`` one further, a target shape
    ``shape_to`` with the batch dimension in front."""
    out = dict(attrs)
    if "axis" in out:
        out["axis"] += 1
    if "shape_to" in out:
        out["shape_to"] = (size,) + tuple(out["shape_to"])
    return out


def leading(b, name, args, batched, size, **attrs):
    """Ops that take batches already (matrices in the last two dims, an ``axis`` that
    shifts, a ``shape_to`` that gains the batch): every operand batched, attributes
    shifted."""
    ins = [front(b, x, k, size) for x, k in zip(args, batched)]
    return b.op(name, *ins, **_shifted(attrs, size))


def matmul(b, name, args, batched, size):
    """A batched operand times an unbatched matrix is one larger product (the batch folded
    into the rows of ``a`` or the columns of ``b``), not a batch of small ones."""
    a, m = args
    if batched[0] and not batched[1] and m.ndim == 2:
        rows = b.op("reshape", a, shape_to=(math.prod(a.shape[:-1]), a.shape[-1]))
        out = b.op(name, rows, m)
        return b.op("reshape", out, shape_to=tuple(a.shape[:-1]) + (m.shape[-1],))
    if batched[1] and not batched[0] and a.ndim == 2:
        k, n = m.shape[-2], m.shape[-1]
        cols = b.op("reshape", b.op("permute", m, perm=(1, 0, 2)), shape_to=(k, size * n))
        out = b.op("reshape", b.op(name, a, cols), shape_to=(a.shape[0], size, n))
        return b.op("permute", out, perm=(1, 0, 2))
    return leading(b, name, args, batched, size)


# ---------------------------------------------------------------- movement

def reshape(b, name, args, batched, size, *, shape_to):
    return b.op(name, args[0], shape_to=(size,) + tuple(shape_to))


def permute(b, name, args, batched, size, *, perm):
    return b.op(name, args[0], perm=(0,) + tuple(p + 1 for p in perm))


def expand(b, name, args, batched, size, *, shape_to):
    x = _aligned(b, args[0], True, len(shape_to))
    return b.op(name, x, shape_to=(size,) + tuple(shape_to))


def window(b, name, args, batched, size, *, starts, stops, steps, **attrs):
    """slice, unslice: the whole batch dimension, in front."""
    return b.op(name, front(b, args[0], batched[0], size), starts=(0,) + tuple(starts),
                stops=(size,) + tuple(stops), steps=(1,) + tuple(steps),
                **_shifted(attrs, size))
