"""Replaying a per-example graph on batched tensors: the batching interpreter behind ``vmap``.

Layer: transforms. Input: a closed graph traced on one example (``frontend.control.bodies``), the
tensors to run it on, which of them carry a leading batch dimension, and its length. Output:
the graph's outputs computed for the whole batch at once, each with its batch flag.

Each node is applied with ``frontend.core.apply`` (eager values or traced nodes, recording the
autograd tape, so ``grad(vmap(f))`` differentiates the batched computation): a node none of
whose operands is batched is applied as it is (work that does not depend on the example is
done once, not once per example); the others go through their op's batching rule
(``OpDef.batch``, ``ops.batching``), and loops and branches through their ``vmap`` rule
(``transforms.control_batching``), which batches their bodies.
"""

from __future__ import annotations

import numpy as np

from ..frontend.core import sources
from ..frontend.core.apply import apply
from ..frontend.core.builder import BUILDER
from ..frontend.control.apply import apply_control
from ..frontend.control.guards import GuardState
from ..frontend.core.tensor import Tensor
from ..ir.walk import walk
from ..ops import OPS
from ..ops.registry import rule

# control op -> rule(node attrs, operands, batched flags, size) -> [(value, batched)] per value


class BatchingError(NotImplementedError):
    """An op of the function has no batching rule."""


def moved_to_front(x: Tensor, axis: int) -> Tensor:
    """``x`` with its axis ``axis`` moved to the front."""
    axis %= max(x.ndim, 1)
    if axis == 0:
        return x
    perm = (axis,) + tuple(i for i in range(x.ndim) if i != axis)
    return apply("permute", x, perm=perm)


def moved_from_front(x: Tensor, axis: int) -> Tensor:
    """``x`` with its leading axis moved to position ``axis`` (negative counts from the end)."""
    axis %= max(x.ndim, 1)
    if axis == 0:
        return x
    rest = list(range(1, x.ndim))
    perm = tuple(rest[:axis] + [0] + rest[axis:])
    return apply("permute", x, perm=perm)


def _constant(node, eager: bool) -> Tensor:
    if not eager:
        return Tensor(None, node)
    return Tensor(np.asarray(node.attr("value"), dtype=node.dtype.np), None)


def replay_batched(graph, args: list, batched: list, size: int) -> list:
    """[(tensor, batched)] for each output of ``graph`` applied to ``args`` (one per input;
    ``batched[k]``: whether ``args[k]`` has a leading batch dimension of length ``size``)."""
    eager = all(a.concrete is not None for a in args)
    locs = graph.locs

    def one(node, operands):
        with sources.attributed_to(locs.get(node), None):
            return _apply(node, operands, size, graph)

    def application(app, operands):
        with sources.attributed_to(locs.get(app.first), None):
            return (_eager_control if eager else _control)(app, operands, size)
    env = walk(graph.nodes(), {i: (a, b) for i, a, b in zip(graph.inputs, args, batched)},
               one, application, lambda node: (_constant(node, eager), False))
    return [env[o] for o in graph.outputs]


def _apply(node, operands: list, size: int, graph) -> tuple:
    values = [v for v, _ in operands]
    flags = [b for _, b in operands]
    if not any(flags):
        return apply(node.op, *values, **node.a), False
    rule = OPS[node.op].batch
    if rule is None:
        raise BatchingError(f"vmap: op {node.op!r} has no batching rule"
                            + _where(graph, node))
    return rule(BUILDER, node.op, values, flags, size, **node.a), True


def _control(app, operands: list, size: int) -> list:
    values = [v for v, _ in operands]
    flags = [b for _, b in operands]
    if not any(flags):
        return [(v, False) for v in apply_control(app.op, values, app.attrs)]
    batched = rule(app.op, "vmap")
    if batched is None:
        raise BatchingError(f"vmap: op {app.op!r} has no batching rule")
    return batched(app.attrs, values, flags, size)


def _eager_control(app, operands: list, size: int) -> list:
    """A loop or branch of an eager vmap: its batched application built on the operands'
    values as constants, and evaluated by the NumPy interpreter (no autograd through it)."""
    if any(v.requires_grad for v, _ in operands):
        raise NotImplementedError(
            f"vmap: a {app.op} of a function vmapped eagerly on tensors that require grad "
            f"is not differentiated eagerly; call the vmapped function on arrays (it is "
            f"compiled) or inside a compiled function")
    outs = _control(app, [(Tensor(None, v.node), b) for v, b in operands], size)
    state = GuardState([], [])
    return [(Tensor(np.asarray(state.value(t.node)), None), b) for t, b in outs]


def _where(graph, node) -> str:
    loc = graph.locs.get(node)
    return f" (at {loc.file}:{loc.line}: {loc.text.strip()})" if loc is not None else ""
