"""Rolling: an unrolled Python loop in a traced program, made one loop before reverse mode.

Layer: front end (above ``loops``: what it makes is a ``scan``). Input: the scalar output of a
traced function to be differentiated and the leaves it is differentiated with respect to
(``api.gradients`` calls ``rolled`` between the forward trace and the backward pass). Output:
the same output recomputed from the leaves by a program in which the longest runs of identical
steps are one ``scan`` each, with a fresh tape; or None, when there is no such run or it could
not be rolled exactly (the caller then goes on with what it has: nothing changes).

Why: a Python ``for`` loop runs at trace time, so a 400-step RK4 integrator written as one
becomes 21k forward nodes, and reverse mode doubles them. Every stage after the trace is linear
in nodes: the unrolled 400-step RK4's gradient spent 1.4 s tracing, 0.6 s in the graph passes
and 1.1 s lowering, for a program that is one step repeated. Rolled before the backward pass,
the backward is one reverse loop (``scan``'s rule), and the passes, lowering and C compile see
one step. (``lower.outline`` rolls what is left later, in the loop IR: it cannot save the
stages before it.)

How (each step a check that can only refuse):

1. the forward nodes in depth-first order (``ir.graph.toposort``: each step of a chain after
   the one before it); candidate periods and stretches from their tokens (``ir.periods``);
2. differentiating the nodes by their ops' own rules must be differentiating the tape
   (``frontend.core.faithful``: no custom Function, hook, retained grad, non-linear composite
   rule...): the ``scan`` rule differentiates its body's nodes;
3. blocks of a stretch are equal when their ``_signature``s are: each node's op, attributes,
   type, which inputs carry a gradient, and where each input comes from -- the same block (its
   position), the block before (its position there: a carry), or the same node before the run
   (an invariant, by identity). Literals are nodes of their exact value, so ``-0.0`` is not
   ``0.0``. Two things may differ from block to block, each read from a sequence the loop
   scans: a block's own constants (a coefficient ``t = k * dt``: ``_constants``, their exact
   values stacked), and the window of a slice of an invariant (``x[t]``: ``_Sequence``, if
   the windows move by one stride along one axis, one element wide there; else the program
   stays unrolled). A run is then cut
   where its steps carry the fewest values (``_fewest_carries``);
4. replay (``_Replay``): each node that carries a gradient or reads a replayed value is
   applied again, by its op, to the replayed inputs (to the same inputs it must give the same
   interned node); a run of B blocks becomes a ``scan`` of B - 1 steps whose body applies the
   first block's ops to the carries, then the last block is applied as it is (so that code
   after the run may read any of its values). Where a step reads a value that carries a
   gradient without passing it on (a ``detach``), the body reads it through a
   ``stop_gradient`` node: the ``scan`` rule differentiates the body's nodes.

The rolled program computes every forward value with the same ops in the same order; its
gradients are the same rules', summed by the ``scan`` rule in its order. The last bits may
differ from the unrolled program's: those sums, and a reduction of the result, which the C
vectorizes or not with what is fused into its loop (as ``sg.compile(f)`` and
``sg.value_and_grad(f)`` of one ``f`` may differ in their value's last bit).

Measured (the unrolled RK4 of ``benchmarks/compile_problems.py``, 400 steps, a fresh process
and an empty cache): the first call 3.3 s -> 1.0 s; per call 43 -> 36 us (the loop's body stays
in cache where 400 outlined calls did not); the benchmark suite's 200-step ODE on scalars,
first call 1.9 s -> 0.3 s, per call 21.7 -> 19.3 us; a tanh RNN over 300 rows ``xs[t]``,
first call 2.2-2.4 s -> 0.95 s.

A program that recomputes values (a recursive cofactor determinant recomputes each minor's
determinant once per path down to it) is replayed the same way with no run: each distinct value
once, so that reverse mode walks the values, not the tape's repetitions (``RECOMPUTED``).

Left unrolled: programs under ``MIN_NODES`` forward nodes, blocks that differ in a window that
does not move by one stride, loops inside a
loop body or a vmapped function (a trace with a body open), transforms with ``has_aux`` (the
aux outputs would keep the unrolled forward), complex values, and anything step 2 refuses.
"""

from __future__ import annotations

import numpy as np

from ...ir.graph import attrs_key, toposort
from ...ir.periods import matching_periods, stretches
from ...ops import OPS
from ...ops.registry import ELEMENTWISE, MOVEMENT, REDUCE
from ..core import sources
from ..core.apply import apply
from ..core.backward_graph import edge
from ..core.faithful import body_barrier, node_masks
from ..core.tensor import Tensor
from .loops import scan

# A forward program of fewer nodes is left unrolled: measured on the unrolled RK4, rolling
# made no difference below (10 steps, 530 nodes: first call and per call alike) and gained
# from 30 steps (1.6k nodes: first call 550 -> 300 ms, per call the same).
MIN_NODES = 1024
# A block is at least MIN_BLOCK nodes (a shorter period is taken several times over), a run at
# least MIN_REPS blocks; periods up to MAX_PERIOD nodes are looked for, CANDIDATES per search.
MIN_BLOCK = 32
MIN_REPS = 8
MAX_PERIOD = 4096
CANDIDATES = 16
# Distances to the next DEPTH occurrences of each token are candidate periods.
DEPTH = 8
# A trace that found RECOMPUTED times as many applications already made as its output has
# nodes (and at least MIN_REPEATS) is replayed over its distinct values, runs or not: a 7x7
# cofactor determinant's tape has 57k functions over 901 values (52k found again), and
# reverse mode over the tape -- merging the functions of one value (``twins``), ordering
# them -- took 0.25 s of its 0.7 s trace; the replayed tape's, 40 ms.
RECOMPUTED = 2
MIN_REPEATS = 4096
_ROLLABLE_KINDS = frozenset((ELEMENTWISE, REDUCE, MOVEMENT))


class _Refused(Exception):
    """The replay met something it cannot reproduce exactly: the caller keeps the unrolled
    program."""


def rolled(out: Tensor, leaves: list) -> Tensor | None:
    """``out`` recomputed from ``leaves`` with its runs rolled (or, a recomputing program,
    over its distinct values), or None (see the module)."""
    rec = sources.current()
    if rec is None or rec.body is not None or out.grad_fn is None or out._value is not None:
        return None
    order = toposort([out._node])
    stretches = _stretches(order) if len(order) >= MIN_NODES else []
    recomputed = rec.repeats >= max(RECOMPUTED * len(order), MIN_REPEATS)
    if not stretches and not recomputed:
        return None
    leaf_nodes = {}
    for t in leaves:
        if t._value is not None or t.grad_fn is not None:
            return None
        leaf_nodes[edge(t)[0]] = t
    masks = node_masks([out.grad_fn], leaf_nodes)
    if masks is None:
        return None
    pos = {n: i for i, n in enumerate(order)}
    runs = sorted(_fewest_carries(order, pos, masks, run) for stretch in stretches
                  for run in _equal_blocks(order, pos, masks, *stretch))
    if not runs and not recomputed:
        return None
    try:
        return _Replay(order, pos, masks, {t._node: t for t in leaves}).run(runs)[out._node]
    except _Refused:
        return None


# ----------------------------------------------------------------- the runs

def _stretches(order: list) -> list:
    """[(start, period, blocks)]: the stretches of at least MIN_REPS blocks equal token for
    token (a node's token: its op, type and number of inputs), none overlapping; the blocks'
    exact signatures are compared next."""
    ids: dict = {}
    tokens = np.empty(len(order), np.int64)
    for i, n in enumerate(order):
        if n.op != "const" and (not n.inputs or not _rollable(n.op)):
            tokens[i] = -1 - i
        else:
            tokens[i] = ids.setdefault((n.op, n.dtype, n.shape, len(n.inputs)), len(ids))
    candidates = matching_periods(tokens, MIN_BLOCK, MAX_PERIOD, CANDIDATES, DEPTH)
    return [(start, period, blocks)
            for start, blocks, period in stretches(tokens, candidates, MIN_REPS)]


def _equal_blocks(order: list, pos: dict, masks: dict, start: int, period: int,
                  blocks: int) -> list:
    """The runs of at least MIN_REPS consecutive blocks with equal signatures among the
    ``blocks`` blocks of ``period`` nodes from ``start``."""
    runs = []
    first, current = 0, None
    for b in range(blocks + 1):
        sig = _signature(order, pos, masks, start + b * period, period) if b < blocks else None
        if sig is None or sig != current:
            if current is not None and b - first >= MIN_REPS:
                runs.append((start + first * period, period, b - first))
            first, current = b, sig
    return runs


def _fewest_carries(order: list, pos: dict, masks: dict, run: tuple) -> tuple:
    """``run`` cut where its steps pass the fewest values from one to the next: a run found
    by tokens starts wherever they start to match, often inside a step, where the loop would
    carry (and its backward store) the step's intermediate values. Each value a step reads
    from the one before crosses the cuts between its position and its last reader's; of the
    ``period`` cuts, the first with the fewest crossings is taken (the run loses a block
    when that is not its own start, if its blocks are still equal from there)."""
    start, period, blocks = run
    last = [0] * period   # per position, how far past it its last reader in the run is
    for i in range(start + period, start + 2 * period):
        for x in order[i].inputs:
            j = pos[x]
            if start <= j < i:
                k = (j - start) % period
                last[k] = max(last[k], i - j)
    crossings = [0] * (2 * period + 1)
    for k, d in enumerate(last):   # cuts k + 1 .. k + d
        if d:
            crossings[k + 1] += 1
            crossings[k + d + 1] -= 1
    total, per_cut = 0, [0] * period
    for r in range(2 * period):
        total += crossings[r]
        per_cut[r % period] += total
    best = min(range(period), key=per_cut.__getitem__)
    if best == 0 or per_cut[best] == per_cut[0]:
        return run
    # The shifted blocks after the first are copies of each other, one period apart, if two
    # are equal (an input one of them reads from further back than the block before is told
    # by identity, and differs in the next); the first reads what comes before the run.
    first, second, third = (_signature(order, pos, masks, start + best + k * period, period)
                            for k in range(3))
    if blocks < MIN_REPS + 2 or second is None or second != third:
        return run
    return (start + best, period, blocks - 1) if first == second else \
        (start + best + period, period, blocks - 2)


def _signature(order: list, pos: dict, masks: dict, lo: int, period: int):
    """The block of ``period`` nodes from ``lo``, its names abstracted (module docstring,
    step 3); None if it cannot be a loop's step (an input before the block before it that is
    not an invariant is told apart by identity, so such blocks never match)."""
    if lo < period:
        return None
    parts = []
    for i in range(lo, lo + period):
        n = order[i]
        refs = []
        for x in n.inputs:
            j = pos[x]
            refs.append(j - lo if j >= lo - period else x)   # (in the block, or the one before)
        attrs = _STEPPING if n.op == "const" or _stepping(n, refs) else attrs_key(n.attrs)
        parts.append((n.op, attrs, n.dtype, n.shape, masks.get(n), tuple(refs)))
    return tuple(parts)


# What a block's own constants and its windows of a sequence are told by: they are its
# step's entry in a scanned sequence (``_Sequence``, ``_constants``).
_STEPPING = ("stepping",)


def _stepping(n, refs: list) -> bool:
    """Whether ``n`` may be a step's window of a sequence: a slice of a value from before the
    run (``x[t]``), which each block takes at another start; the starts must then move by
    the same amount each block, along one axis, a window one wide there (``_Sequence``)."""
    return n.op == "slice" and type(refs[0]) is not int


# ----------------------------------------------------------------- the replay

class _Replay:
    """Apply the graph again from the leaves, with each run as a ``scan``. ``env`` maps a node
    to its new tensor: every node that carries a gradient, and every node that reads a new
    value; the others (constants, values that need no gradient and read none) stay as they
    are."""

    def __init__(self, order: list, pos: dict, masks: dict, leaves: dict) -> None:
        self.order = order
        self.pos = pos
        self.masks = masks
        self.leaves = leaves
        self.env: dict = dict(leaves)

    def run(self, runs: list) -> dict:
        i, k = 0, 0
        order, env = self.order, self.env
        while i < len(order):
            if k < len(runs) and runs[k][0] == i:
                i = self._loop(*runs[k])
                k += 1
                continue
            n = order[i]
            if n not in env:
                changed = any(x in env and env[x].node is not x for x in n.inputs)
                carries = self.masks.get(n) is not None
                if changed or carries:
                    t = self._apply(n, env)
                    if (not changed and t.node is not n) or t.requires_grad != carries:
                        raise _Refused   # (applied again to the same inputs: the same node)
                    env[n] = t
            i += 1
        return env

    def _value(self, node) -> Tensor:
        """The tensor for ``node`` in the replay: its new one, or itself if it carries no
        gradient (one that does and has none: a value of an earlier run's rolled steps)."""
        t = self.env.get(node)
        if t is not None:
            return t
        if node in self.masks or node in self.leaves:
            raise _Refused
        return Tensor(None, node)

    def _apply(self, n, env: dict) -> Tensor:
        """``n``'s op applied again to the tensors ``env`` holds for its inputs (an input no
        gradient flows through: its value, without one), checked to give ``n``'s type."""
        if not _rollable(n.op):
            raise _Refused
        ins = []
        mask = self.masks.get(n) or (False,) * len(n.inputs)
        for x, flows in zip(n.inputs, mask):
            t = env.get(x)
            if flows:
                if t is None:
                    raise _Refused   # (a value of a rolled step other than the last)
                ins.append(t)
            else:   # its value without a gradient; in the loop's body, a node says so
                v = Tensor(None, x if t is None else t.node)
                if x in self.masks or x in self.leaves:
                    v = Tensor(None, body_barrier(v, "stop_gradient") or v._node)
                ins.append(v)
        t = apply(n.op, *ins, **dict(n.attrs))
        if t.dtype is not n.dtype or tuple(t.shape) != n.shape:
            raise _Refused
        return t

    def _loop(self, start: int, period: int, blocks: int) -> int:
        """Replay the run of ``blocks`` blocks at ``start``: a scan of blocks - 1 steps, then
        the last block as it is. Returns the position where the last block starts."""
        order, env, pos = self.order, self.env, self.pos
        step = order[start:start + period]
        carried = sorted({x for n in step for x in n.inputs
                          if start - period <= pos[x] < start}, key=pos.__getitem__)
        slots = [pos[x] - (start - period) for x in carried]
        init = []
        for x, q in zip(carried, slots):
            if (x.dtype, x.shape) != (step[q].dtype, step[q].shape):
                raise _Refused
            init.append(self._value(x))

        before = start - period   # (a slice of a value from before: a sequence's window)
        sequences = [_Sequence(order, start, period, blocks, q) for q, n in enumerate(step)
                     if n.op == "slice" and pos.get(n.inputs[0], before) < before]
        xs = [seq.stacked(self._value(seq.base)) for seq in sequences]
        consts = [q for q, n in enumerate(step) if n.op == "const"]
        xs += [_constants(order, start, period, blocks - 1, q) for q in consts]
        shapes = [seq.node.shape for seq in sequences] + [step[q].shape for q in consts]

        def body(carry, x):
            local = dict(env)
            local.update(zip(carried, carry))
            windows = {q: apply("reshape", t, shape_to=tuple(shape))
                       for q, t, shape in zip([seq.q for seq in sequences] + consts, x or (),
                                              shapes)}
            for q, n in enumerate(step):
                local[n] = windows[q] if q in windows else self._apply(n, local)
            return tuple(local[step[q]] for q in slots), None

        final, _ = scan(body, tuple(init), xs=xs or None, length=blocks - 1)
        last = start + (blocks - 1) * period
        for q, t in zip(slots, final):   # the carries: the values of the block before the last
            env[order[last - period + q]] = t
        return last


class _Sequence:
    """A step's window of a value from before the run, at a start that moves by ``delta``
    each block (``x[t]`` in ``for t in range(n)``): the loop reads it as a scanned sequence,
    the slice of all the steps' windows at once with the stepping axis first. Refused
    (``_Refused``) unless the starts move along one axis, a window one wide there."""

    def __init__(self, order: list, start: int, period: int, blocks: int, q: int) -> None:
        nodes = [order[start + b * period + q] for b in range(blocks)]
        first = nodes[0]
        self.q, self.base, self.node = q, first.inputs[0], first
        starts, stops, steps = (first.attr(k) for k in ("starts", "stops", "steps"))
        delta = [b - a for a, b in zip(starts, nodes[1].attr("starts"))]
        moving = [k for k, d in enumerate(delta) if d]
        if len(moving) != 1 or any(type(v) is not int for v in starts + stops + steps):
            raise _Refused
        a = self.axis = moving[0]
        if stops[a] - starts[a] != 1 or delta[a] < 0:
            raise _Refused
        for b, n in enumerate(nodes):   # every block's window, the first's moved b deltas
            want = tuple(v + b * d for v, d in zip(starts, delta))
            if n.inputs[0] is not self.base or n.attr("starts") != want or \
                    n.attr("stops") != tuple(v + b * d for v, d in zip(stops, delta)) or \
                    n.attr("steps") != steps:
                raise _Refused
        self.starts, self.stops, self.steps = starts, list(stops), list(steps)
        self.stops[a] = starts[a] + (blocks - 2) * delta[a] + 1   # (the scan's blocks - 1)
        self.steps[a] = delta[a]

    def stacked(self, base: Tensor) -> Tensor:
        """The windows of the scanned steps, stacked along a first axis."""
        t = apply("slice", base, starts=self.starts, stops=tuple(self.stops),
                  steps=tuple(self.steps))
        perm = (self.axis,) + tuple(k for k in range(t.ndim) if k != self.axis)
        return t if self.axis == 0 else apply("permute", t, perm=perm)


def _constants(order: list, start: int, period: int, steps: int, q: int) -> Tensor:
    """The constants at position ``q`` of the first ``steps`` blocks of a run (a coefficient
    that changes from step to step: ``t = k * dt``), stacked: the scan's sequence of them.
    Their exact values (``-0.0``, NaN payloads), in their dtype."""
    nodes = [order[start + b * period + q] for b in range(steps)]
    first = nodes[0]
    return Tensor(np.stack([np.asarray(n.attr("value"), dtype=first.dtype.np) for n in nodes]),
                  None)


# Ops applied again: those with one rule and no graphs or effects of their own (no control
# flow, guard or poison; the linear algebra and FFT ops are left out as well).
_OTHER_ROLLABLE = frozenset(("cat", "matmul", "gather", "scatter_add", "unslice", "cumsum",
                             "cumprod", "argmax", "argmin"))


def _rollable(name: str) -> bool:
    return OPS[name].kind in _ROLLABLE_KINDS or name in _OTHER_ROLLABLE
