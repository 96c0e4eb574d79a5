"""``vjp`` on arrays as two programs: the forward pass keeps its residuals, ``vjp_fn`` reads them.

Layer: transforms. Input: a Python function and its primal arguments (the forward program's
body); a ``Pullback`` that trace made, its residuals and the cotangents (the backward
program's body). Output: traced tensors (each program is the body of a compiled function,
``api.derivatives.vjp``).

Partial evaluation of the joint graph (JAX's ``linearize`` + ``partial_eval``, done on the IR):
the forward program traces the function and its backward pass from placeholder cotangents (input
nodes no graph has). A node is *unknown* if it reads a cotangent, *known* if it reads only
inputs of the function (its arguments and captured state), constant if it reads neither. The
residuals are the frontier: the known nodes an unknown node reads (and a gradient that is
known), in the graph's order. The forward program returns the function's value and the
residuals; the same trace makes the backward program's graph (``Pullback``): the gradients
with the frontier replaced by residual inputs, so it computes the backward nodes alone (the
forward pass does not run twice). What is cheaper to compute again than to store and load is
not stored: a residual that is a view of a known node (a broadcast, a reshape, a transpose) is
stored as that node, and one that is simple arithmetic (``_RECOMPUTED``: no product or
reduction) of other residuals and constants is computed again from them in the backward loops
(``1 - h*h`` for ``tanh``'s derivative when ``h`` is stored anyway).

The backward program is made from the forward's own trace, never from tracing the function
again: the forward program also returns the ``Pullback``'s digest (a constant of its code,
the content hash of the backward graph), and ``vjp_fn`` runs the backward program of that
digest. So the pullback is the one of the trace whose residuals it reads, even if the captured
state changed in between in a way that changes what the function computes (a global flag
choosing ``tanh`` or ``sigmoid``), or the trace drew random constants (a second trace would
draw others). Every residual is an output of the forward call (a copy, when it is an argument
itself): what ``vjp_fn`` computes with is what the forward call saw, even if the caller changes
the arguments' arrays or the captured state before calling it (JAX's semantics).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..frontend.control.apply import replay_from
from ..frontend.core import grad_mode, sources
from ..frontend.core.apply import as_tensor, full
from ..frontend.core.engine import run_backward
from ..frontend.core.tensor import Tensor
from ..ir import Graph, Node, structure
from ..ops import registry
from ..ir.graph import toposort, with_inputs
from ..pytree import unflatten
from ..dims import same_shape
from .forward import _float_leaf, leaves_of, split_aux

# The kinds of op the backward program computes again where it reads them (fused into its
# loops) instead of storing them: measured, storing an elementwise value costs more than
# computing it again, a transcendental function included (at 10^6 elements: the forward call
# 3.9 -> 10.0 ms with five such residuals stored, vjp_fn 4.7 -> 3.5 ms); a product, a reduction,
# a gather, a loop's result are stored (computing them again is the work a split saves).
_RECOMPUTED = frozenset({registry.ELEMENTWISE, registry.MOVEMENT})


@dataclass
class Joint:
    """The function and its backward pass from placeholder cotangents, traced together."""

    out: Any                  # the function's value (a pytree of tensors)
    aux: Any
    grads: list               # one gradient tensor per primal leaf
    p_tree: Any
    o_tree: Any
    seeds: list               # one placeholder cotangent node per output leaf
    frontier: list            # the residual nodes, in order


@dataclass(frozen=True)
class Pullback:
    """The backward program one forward trace made: ``graph``'s inputs are the residuals, then
    one cotangent per output leaf of structure ``o_tree``; its outputs are one gradient per
    primal leaf, of structure ``p_tree``. ``digest`` is its content's hash."""

    graph: Graph
    n_residuals: int
    o_tree: Any
    p_tree: Any
    digest: bytes


def _joint(fn: Callable, primals: tuple, has_aux: bool, name: str) -> Joint:
    """Trace ``fn`` on ``primals`` and its backward pass from placeholder cotangents, and find
    the residual frontier."""
    p_leaves, p_tree = leaves_of(tuple(primals))
    with grad_mode.enable_grad():
        xs = [_float_leaf(p, f"primal leaf {k}", name) for k, p in enumerate(p_leaves)]
        out, aux = split_aux(fn(*unflatten(p_tree, xs)), has_aux, name)
    o_leaves, o_tree = leaves_of(out)
    seeds = _placeholders(o_leaves)
    roots = [(o, c) for o, c in zip(o_leaves, seeds)
             if o.requires_grad and o.dtype.is_differentiable]
    with grad_mode.enable_grad():
        gs = run_backward(roots, retain_graph=True, create_graph=True,
                          inputs=xs) if roots else [None] * len(xs)
    grads = [g if g is not None else full(x, 0.0) for g, x in zip(gs, xs)]
    frontier = residual_frontier([g.node for g in grads], {c.node for _, c in roots})
    return Joint(out, aux, grads, p_tree, o_tree, [c.node for c in seeds], frontier)


def _placeholders(o_leaves: list) -> list:
    """One stand-in cotangent per output leaf: an input node no graph has (unique by its
    scope), so that what reads it is told apart from what does not."""
    return [Tensor(None, Node("input", (("index", -1 - k), ("name", f"cotangent {k}"),
                                       ("scope", "vjp residuals")), (), o.dtype, o.shape))
            for k, o in enumerate(o_leaves)]


def _cotangents(cotangents: Any, seeds: tuple, o_tree: Any, name: str) -> list:
    """The cotangent leaves, checked against the output's structure and shapes (``seeds``:
    the backward graph's cotangent inputs) and cast to its dtypes."""
    c_leaves, c_tree = leaves_of(cotangents)
    if c_tree != o_tree:
        raise ValueError(f"{name}: the cotangent must have the structure of the output: "
                         f"{o_tree.describe()}, got {c_tree.describe()}")
    for k, (o, c) in enumerate(zip(seeds, c_leaves)):
        if not same_shape(tuple(c.shape), tuple(o.shape)):
            raise ValueError(f"{name}: cotangent leaf {k} has shape {tuple(c.shape)}, but the "
                             f"output has shape {tuple(o.shape)}")
    return [c if c.dtype is o.dtype else as_tensor(c, o.dtype)
            for o, c in zip(seeds, c_leaves)]


def residual_frontier(outputs: list, seeds: set) -> list:
    """The known nodes that unknown nodes (those reading ``seeds``) read, and the known
    ``outputs``, in the graph's order; constants (reading no input) are not residuals."""
    unknown: set = set()
    varying: set = set()
    frontier: dict = {}

    def keep(node: Node) -> None:
        stack = [node]
        while stack:
            node = stack.pop()
            if node in frontier:
                continue
            if _recomputed(node):
                stack.extend(i for i in node.inputs if i in varying)
            else:
                frontier[node] = None

    for node in toposort(outputs):
        if node in seeds or any(i in unknown for i in node.inputs):
            unknown.add(node)
            for i in node.inputs:
                if i in varying:
                    keep(i)
        elif node.op == "input" or any(i in varying for i in node.inputs):
            varying.add(node)
    for node in outputs:
        if node in varying:
            keep(node)
    return list(frontier)


def _recomputed(node: Node) -> bool:
    """Whether the backward program computes ``node`` again from its operands instead of
    storing it: elementwise ops and views (``_STORED``: every other kind is)."""
    return node.op != "input" and registry.get(node.op).kind in _RECOMPUTED


def forward_call(fn: Callable, primals: tuple, has_aux: bool, name: str,
                 keep: Callable[[Pullback], None]) -> tuple:
    """The forward program's body: ``(value, residuals, digest[, aux])``; ``keep`` receives
    the ``Pullback`` this trace made, ``digest`` (two int64) names it."""
    joint = _joint(fn, primals, has_aux, name)
    pullback = _pullback(joint)
    keep(pullback)
    residuals = [Tensor(None, n) for n in joint.frontier]
    digest = as_tensor(np.frombuffer(pullback.digest, np.int64).copy())
    out = (joint.out, residuals, digest)
    return out + (joint.aux,) if has_aux else out


def _pullback(joint: Joint) -> Pullback:
    """The backward graph of ``joint``: its gradients, the frontier read from inputs."""
    held = [Node("input", (("index", k), ("name", f"residual {k}"), ("scope", "vjp pullback")),
                 (), n.dtype, n.shape) for k, n in enumerate(joint.frontier)]
    outputs = substitute([g.node for g in joint.grads], dict(zip(joint.frontier, held)))
    inputs = tuple(held) + tuple(joint.seeds)
    rec = sources.current()
    locs = rec.locs if rec is not None else {}
    nodes = toposort(outputs, inputs)
    stray = [n for n in nodes if n.op == "input" and n not in set(inputs)]
    if stray:   # (the frontier covers every known node the backward reads)
        raise AssertionError(f"vjp's backward graph reads {stray[0]} beside its residuals")
    graph = Graph(inputs, tuple(outputs), {n: locs[n] for n in nodes if n in locs})
    digest = structure.digest(graph, repr(joint.o_tree), repr(joint.p_tree))
    return Pullback(graph, len(held), joint.o_tree, joint.p_tree, digest)


def backward_call(pullback: Pullback, residuals: list, cotangents: Any, name: str) -> tuple:
    """The backward program's body: one cotangent per primal (a tuple, each shaped like its
    primal), computed by ``pullback``'s graph from ``residuals`` (the forward program's) and
    ``cotangents``."""
    inputs = pullback.graph.inputs
    held, seeds = inputs[:pullback.n_residuals], inputs[pullback.n_residuals:]
    given = [as_tensor(r) for r in residuals]
    if len(given) != len(held) or any(not same_shape(tuple(r.shape), tuple(n.shape))
                                      for r, n in zip(given, held)):
        raise ValueError(f"{name}: {len(given)} residuals given, {len(held)} expected: "
                         f"pass vjp_fn the residuals of its own forward call")
    given = [r if r.dtype is n.dtype else as_tensor(r, n.dtype) for r, n in zip(given, held)]
    known = dict(zip(inputs, given + _cotangents(cotangents, seeds, pullback.o_tree, name)))
    values = replay_from(pullback.graph, known)
    return tuple(unflatten(pullback.p_tree, [values[o] for o in pullback.graph.outputs]))


def substitute(outputs: list, mapping: dict) -> list:
    """``outputs`` rebuilt with each node of ``mapping`` replaced by its value there (the
    source lines of the nodes kept for the C's comments)."""
    env = dict(mapping)
    rec = sources.current()
    locs = rec.locs if rec is not None else {}
    for node in toposort(outputs):
        if node in env:
            continue
        new = with_inputs(node, tuple(env[i] for i in node.inputs)) if node.inputs else node
        env[node] = new
        if new is not node and node in locs:
            locs.setdefault(new, locs[node])
    return [env[o] for o in outputs]
