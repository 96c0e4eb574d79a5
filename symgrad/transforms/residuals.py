"""``vjp`` on arrays as two programs: the forward pass keeps its residuals, ``vjp_fn`` reads them.

Layer: transforms. Input: a Python function, its primal arguments, and for the backward
program the residuals the forward one returned and the cotangents. Output: traced tensors (each
program is the body of a compiled function, ``api.derivatives.vjp``).

Partial evaluation of the joint graph (JAX's ``linearize`` + ``partial_eval``, done on the IR):
both programs trace the function and its backward pass from the cotangents, the forward one from
placeholders that are no input of its graph. A node is *unknown* if it reads a cotangent,
*known* if it reads only inputs of the function (its arguments and captured state), constant if
it reads neither. The residuals are the frontier: the known nodes an unknown node reads (and a
gradient that is known), in the graph's order. The forward program returns the function's value
and the residuals; the backward program builds the same joint graph, finds the same frontier
(the same function traced for the same signature: the same nodes in the same order), and reads
the residual arguments in place of those nodes, so it computes the backward nodes alone: the
forward pass does not run twice. What is cheaper to compute again than to store and load is
not stored: a residual that is a view of a known node (a broadcast, a reshape, a transpose) is
stored as that node, and one that is simple arithmetic (``_CHEAP``: no transcendental function)
of other residuals and constants is computed again from them in the backward loops (``1 - h*h``
for ``tanh``'s derivative when ``h`` is stored anyway).

Every residual is an output of the forward call (a copy, when it is an argument itself): what
``vjp_fn`` computes with is what the forward call saw, even if the caller changes the
arguments' arrays or the captured state before calling it (JAX's semantics). The backward
program still takes the primal arguments, to trace the function; its compiled code reads them
only for the guards of the function's Python control flow (the branch its residuals came from).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..frontend.core import grad_mode, sources
from ..frontend.core.apply import as_tensor, full
from ..frontend.core.engine import run_backward
from ..frontend.core.tensor import Tensor
from ..ir import Node
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
    """The function and its backward pass from the cotangents, traced together."""

    out: Any                  # the function's value (a pytree of tensors)
    aux: Any
    grads: list               # one gradient tensor per primal leaf
    p_tree: Any
    frontier: list            # the residual nodes, in order


def _joint(fn: Callable, primals: tuple, has_aux: bool, name: str,
           cotangents: Any | None) -> Joint:
    """Trace ``fn`` on ``primals`` and its backward pass from ``cotangents`` (None: from
    placeholder nodes, the forward program's), and find the residual frontier."""
    p_leaves, p_tree = leaves_of(tuple(primals))
    with grad_mode.enable_grad():
        xs = [_float_leaf(p, f"primal leaf {k}", name) for k, p in enumerate(p_leaves)]
        out, aux = split_aux(fn(*unflatten(p_tree, xs)), has_aux, name)
    o_leaves, o_tree = leaves_of(out)
    seeds = _placeholders(o_leaves) if cotangents is None else \
        _cotangents(cotangents, o_leaves, o_tree, name)
    roots = [(o, c) for o, c in zip(o_leaves, seeds)
             if o.requires_grad and o.dtype.is_differentiable]
    with grad_mode.enable_grad():
        gs = run_backward(roots, retain_graph=True, create_graph=True,
                          inputs=xs) if roots else [None] * len(xs)
    grads = [g if g is not None else full(x, 0.0) for g, x in zip(gs, xs)]
    seed_nodes = {c.node for _, c in roots}
    frontier = residual_frontier([g.node for g in grads], seed_nodes)
    return Joint(out, aux, grads, p_tree, frontier)


def _placeholders(o_leaves: list) -> list:
    """One stand-in cotangent per output leaf: an input node no graph has (unique by its
    scope), so that what reads it is told apart from what does not."""
    return [Tensor(None, Node("input", (("index", -1 - k), ("name", f"cotangent {k}"),
                                       ("scope", "vjp residuals")), (), o.dtype, o.shape))
            for k, o in enumerate(o_leaves)]


def _cotangents(cotangents: Any, o_leaves: list, o_tree: Any, name: str) -> list:
    c_leaves, c_tree = leaves_of(cotangents)
    if c_tree != o_tree:
        raise ValueError(f"{name}: the cotangent must have the structure of the output: "
                         f"{o_tree.describe()}, got {c_tree.describe()}")
    for k, (o, c) in enumerate(zip(o_leaves, c_leaves)):
        if not same_shape(tuple(c.shape), tuple(o.shape)):
            raise ValueError(f"{name}: cotangent leaf {k} has shape {tuple(c.shape)}, but the "
                             f"output has shape {tuple(o.shape)}")
    return [c if c.dtype is o.dtype else as_tensor(c, o.dtype)
            for o, c in zip(o_leaves, c_leaves)]


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


def forward_call(fn: Callable, primals: tuple, has_aux: bool, name: str) -> tuple:
    """The forward program's body: ``(value, residuals[, aux])``."""
    joint = _joint(fn, primals, has_aux, name, None)
    residuals = [Tensor(None, n) for n in joint.frontier]
    return (joint.out, residuals, joint.aux) if has_aux else (joint.out, residuals)


def backward_call(fn: Callable, primals: tuple, residuals: list, cotangents: Any,
                  has_aux: bool, name: str) -> tuple:
    """The backward program's body: one cotangent per primal (a tuple, each shaped like its
    primal), computed from ``residuals`` (the forward program's) and ``cotangents``."""
    joint = _joint(fn, primals, has_aux, name, cotangents)
    found = joint.frontier
    given = [as_tensor(r) for r in residuals]
    if len(given) != len(found) or any(not same_shape(tuple(r.shape), tuple(n.shape))
                                       for r, n in zip(given, found)):
        raise RuntimeError(f"{name}: the function traced differently for vjp_fn than for "
                           f"its forward call ({len(found)} residuals, {len(given)} given): "
                           f"does it depend on state that changed between them?")
    mapping = {n: (r if r.dtype is n.dtype else as_tensor(r, n.dtype)).node
               for n, r in zip(found, given)}
    nodes = substitute([g.node for g in joint.grads], mapping)
    return tuple(unflatten(joint.p_tree, [Tensor(None, n) for n in nodes]))


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
