"""The op family the fuzzer draws from the op registry itself: every elementwise op of
``symgrad.ops.OPS`` that is smooth and reachable as ``sg.<name>``, found when the fuzzer starts
(a new op joins the fuzzing with no edit here).

An op qualifies when symgrad exposes it as ``sg.<name>`` taking one or two tensors of a
floating dtype (traced, that call is one node of the op, of that dtype), it has a gradient
(a VJP that does not raise, as heaviside's does because torch's does), and on
one of ``BOXES`` (a box of arguments, tried in order) its NumPy reference is finite and within
``BOUND``, and so are its slopes (difference quotients on a grid), and neither its steepest
slope nor its largest second difference grows when the grid is refined (a jump doubles the one,
a kink the other): the op is smooth there, and finite differences of the program check its
gradient. (``copysign`` qualifies on positive arguments, where it has no jump.) An operand
reaches the op through a smooth guard into the box (``lo + (hi - lo) * sigmoid(v)``), whatever
its values; the result's interval is the reference's range over the box (sampled on the grid,
widened by ``MARGIN``).

The hand-written families (generate.py) keep their own spellings, domains and kink probes for
the ops they know; this family draws every op that qualifies, so each new one is fuzzed too.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .model import F32, F64, broadcast, promote

BOXES = ((-2.0, 2.0), (-0.75, 0.75), (0.25, 4.0), (1.25, 4.0))
# Ops whose gradient on the diagonal (both operands one variable) is not the slope of
# op(v, v): nextafter(v, v) is v, but its gradient in x is 0 where x == y (torch's rule,
# ops/pointwise.py), so central differences of nextafter(v, v) disagree with it by design
# (found by a campaign: 0.0 against -105.9).
DIAGONAL = frozenset(("nextafter",))
BOUND = 1e3            # |value| and |slope| on the box
MARGIN = 0.01          # of the sampled range, each side


@dataclass(frozen=True)
class Drawn:
    """One registry op the family draws: its name, arity, argument box and value range."""

    name: str
    arity: int
    box: tuple
    lo: float
    hi: float


@functools.cache
def registry_ops() -> tuple:
    """The registry's ops the family draws (see the module docstring), sorted by name."""
    import symgrad as sg
    from symgrad.ops import OPS
    from symgrad.ops.registry import ELEMENTWISE
    found = []
    for name, op in sorted(OPS.items()):
        if op.kind != ELEMENTWISE or op.vjp is None or not callable(getattr(sg, name, None)):
            continue
        expr, symbols = op.expression()
        if len(symbols) not in (1, 2):
            continue
        attrs = _spelled(sg, name, len(symbols))
        if attrs is None:
            continue
        drawn = _on_a_box(name, len(symbols), lambda *xs: op.numpy(*xs, **attrs))
        if drawn is not None:
            found.append(drawn)
    return tuple(found)


def _spelled(sg, name: str, arity: int) -> dict | None:
    """The attributes of the one ``name`` node that ``sg.<name>(x[, y])`` traces to, or None
    when the call is spelled otherwise (more nodes of it, none, an error) or its result is not
    of its operands' floating dtype (a bool ``signbit``)."""
    found = []
    for dtype in (np.float64, np.float32):
        args = [np.linspace(0.5, 1.5, 3, dtype=dtype) for _ in range(arity)]
        try:
            graph = sg.compile(lambda *xs: getattr(sg, name)(*xs)).trace(*args).graph
        except Exception:   # noqa: BLE001 - takes other arguments: not this family's
            return None
        nodes = [n for n in graph.nodes() if n.op == name]
        if len(nodes) != 1 or nodes[0].dtype.name != np.dtype(dtype).name or \
                len([n for n in nodes[0].inputs if n.op == "input"]) != arity:
            return None
        found.append(dict(nodes[0].attrs))
    try:        # a gradient torch does not define (heaviside) raises, as torch's does
        xs = [sg.tensor(np.linspace(0.5, 1.5, 3), requires_grad=True) for _ in range(arity)]
        with np.errstate(all="ignore"):    # (the points may be outside the op's domain)
            getattr(sg, name)(*xs).sum().backward()
    except Exception:   # noqa: BLE001
        return None
    return found[0]


def _on_a_box(name: str, arity: int, f) -> Drawn | None:
    for box in BOXES:
        coarse, fine = (_sampled(f, arity, box, n) for n in ((129, 257) if arity == 1 else
                                                             (17, 33)))
        if coarse is None or fine is None:
            continue
        # A jump doubles the steepest slope when the grid is refined, a kink the largest
        # second difference: the op is smooth on the box only if neither grows.
        if fine[1] > 1.5 * coarse[1] + 1.0 or fine[2] > 1.5 * coarse[2] + 1.0:
            continue
        lo, hi = fine[0]
        pad = MARGIN * max(hi - lo, 1.0)
        return Drawn(name, arity, box, lo - pad, hi + pad)
    return None


def _sampled(f, arity: int, box: tuple, n: int):
    """((min, max) of ``f`` on an n-point grid of the box, its steepest slope, its largest
    second difference), or None where a value or a slope is not finite or above ``BOUND``."""
    grid = np.linspace(*box, n)
    h = grid[1] - grid[0]
    with np.errstate(all="ignore"):
        values = np.asarray(f(*np.meshgrid(*[grid] * arity, indexing="ij")), dtype=np.float64)
        slopes = [np.diff(values, axis=k) / h for k in range(arity)]
        curves = [np.diff(values, 2, axis=k) / (h * h) for k in range(arity)]
    if values.shape != (n,) * arity or not all(np.all(np.isfinite(x)) for x in
                                               [values, *slopes, *curves]):
        return None
    steepest = max(float(np.abs(s).max()) for s in slopes)
    if np.abs(values).max() > BOUND or steepest > BOUND:
        return None
    return ((float(values.min()), float(values.max())), steepest,
            max(float(np.abs(c).max()) for c in curves))


def guard(text: str, box: tuple) -> str:
    """``text`` mapped smoothly into ``box`` (the open interval)."""
    lo, hi = box
    return f"({lo!r} + {hi - lo!r} * sg.sigmoid({text}))"


def registry(b, a) -> bool:
    """An elementwise op drawn from the registry, applied to guarded operands."""
    ops = registry_ops()
    if a.dtype not in (F32, F64) or not ops:
        return False
    d = b.choose(ops)
    operands = [a]
    if d.arity == 2:
        c = b.partner(a, lambda v: v.dtype in (F32, F64) and broadcast(v.shape, a.shape)
                      is not None, lambda: b.variant(a.shape), const=False)
        if c is None or c.dtype not in (F32, F64) or c is a and d.name in DIAGONAL:
            return False
        operands.append(c)
    args = ", ".join(guard(v.name, d.box) for v in operands)
    shape = broadcast(*(v.shape for v in operands))
    if math.prod(shape) == 0:
        return False
    return b.emit(f"sg.{d.name}({args})", shape, promote(*operands), d.lo, d.hi, operands)
