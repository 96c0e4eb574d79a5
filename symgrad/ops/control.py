"""Structured control flow: ``scan``, ``while`` and ``cond``, primitives whose attributes hold
closed sub-graphs (JAX's ``scan``/``while``/``cond`` equations hold closed jaxprs).

Layer: ops. Input: nothing. Output: registered ``OpDef``s of kind OTHER with ``bodies`` (the
attributes that hold graphs) and ``n_outputs`` (how many values one application produces).

One application produces several values; the graph IR's nodes have one value each, so an
application is one node per value, *siblings* that share the op, the inputs and every attribute
but ``index`` (which value this node is). Interning makes the siblings of one application agree
by construction; a graph keeps only the siblings something reads (dead-code elimination drops
the others), and lowering runs the application once for all of them (``ir.control.group_key``).

- ``scan(*init, *xs, *consts)[body, length, reverse, carries, xs]``: ``carries`` carried
  values, ``xs`` sequences of ``length`` leading elements, and loop-invariant operands.
  ``body(*carry, *x_t, *consts) -> (*carry', *y_t)``. Values: the final carries, then each
  ``y`` stacked along a new leading axis of ``length``. With ``reverse`` the steps run from
  ``t = length - 1`` down to 0 (and ``y_t`` is stored at ``t``).
- ``while(*init, *consts)[cond, body, carries]``: ``cond(*carry, *consts) -> bool[]`` and
  ``body(*carry, *consts) -> (*carry',)``; the trip count is known only when it runs. Values:
  the final carries.
- ``while_grad(*init, *consts, *seed)[cond, body, step, carries]``: reverse mode through a
  ``while``: runs the loop of ``cond``/``body`` from ``init``, keeping on a tape the carry that
  enters each step and the body's values beyond its carries (what the VJP reads: residuals);
  the trip count is known only then. Then the steps backwards, ``r = step(*r, *carry_t,
  *residuals_t, *consts)`` from ``r = seed`` (``step`` is the body's VJP: the carries'
  cotangents, and sums of the invariant operands' cotangents). Values: the final ``r``. Its
  VJP (``frontend.control.vjp.while_grad_vjp``) runs the loop forwards carrying tangents, and
  that loop's own reverse for second derivatives.
  ``seeds`` names what each seed is the cotangent of: ``("carry", k)`` or ``("const", j)``.
- ``cond(pred, *operands)[branches]``: ``branches = (false_fn, true_fn)``, each
  ``(*operands) -> (*outputs)`` with equal output types. Values: the chosen branch's outputs.

- ``poison()[shape_to, dtype, message]``: a value that cannot be computed (a derivative
  symgrad does not have): it may appear in a graph that does not use it; code generation
  and the interpreter raise ``NotImplementedError(message)`` if it is used.
- ``guard(pred)[expect, number]``: a decision of Python control flow taken while tracing
  (``frontend.control.guards``): ``pred == expect``. A graph lists its guards first among its
  outputs (``Graph.n_guards``); the compiled C checks them in order, before it writes any
  output, and returns a status naming the first that fails.

Bodies only ever read their own inputs and constants (a closed graph: the front end hoists
every value from outside into an operand, see ``ir.closure``). The NumPy reference of each op
takes ``run(graph, arrays) -> arrays``, the interpreter of the layer above, so that this module
needs no graph code. The VJP rules live in the front end (``frontend.control.vjp``), which
builds the reverse loop as another application of these ops.
"""

from __future__ import annotations

import numpy as np

from ..dtypes import bool_
from .registry import OTHER, OpDef, ShapeError, register
from ..dims import same_shape

__all__ = ["CONTROL_OPS"]

CONTROL_OPS = ("scan", "while", "while_grad", "cond")


def _check_operands(op: str, graph, shapes: tuple, dtypes: tuple | None = None) -> None:
    """The operands fit the body's inputs (number and shapes; dtypes when given)."""
    if len(graph.inputs) != len(shapes):
        raise ShapeError(f"{op}: the body takes {len(graph.inputs)} inputs, the node has "
                         f"{len(shapes)} operands")
    for k, (node, shape) in enumerate(zip(graph.inputs, shapes)):
        if not same_shape(tuple(node.shape), tuple(shape)):
            raise ShapeError(f"{op}: body input {k} has shape {node.shape}, its operand "
                             f"{tuple(shape)}")
        if dtypes is not None and node.dtype is not dtypes[k]:
            raise TypeError(f"{op}: body input {k} is {node.dtype.name}, its operand "
                            f"{dtypes[k].name}")


def _carried(op: str, graph, carries: int) -> None:
    """The body's first ``carries`` outputs have the types of its first ``carries`` inputs."""
    for k in range(carries):
        i, o = graph.inputs[k], graph.outputs[k]
        if not same_shape(tuple(i.shape), tuple(o.shape)) or i.dtype is not o.dtype:
            raise ShapeError(f"{op}: carry {k} enters the body as {i.dtype.name}"
                             f"{list(i.shape)} and leaves it as {o.dtype.name}{list(o.shape)}")


# ------------------------------------------------------------------ scan

def _scan_x_shapes(shapes: tuple, length: int, carries: int, xs: int) -> tuple:
    """The operands' shapes as the body sees them (one step of each sequence)."""
    seq = shapes[carries:carries + xs]
    for k, s in enumerate(seq):
        if not s or s[0] != length:
            raise ShapeError(f"scan: sequence {k} has shape {tuple(s)}, expected a leading "
                             f"axis of length {length}")
    return shapes[:carries] + tuple(tuple(s[1:]) for s in seq) + shapes[carries + xs:]


def _scan_shape(*shapes, body, length, reverse, carries, xs, index):
    _check_operands("scan", body, _scan_x_shapes(shapes, length, carries, xs))
    _carried("scan", body, carries)
    out = body.outputs[index]
    return tuple(out.shape) if index < carries else (length,) + tuple(out.shape)


def _scan_dtype(*dtypes, body, index, **_):
    return body.outputs[index].dtype


def _np_scan(*arrays, run, body, length, reverse, carries, xs, index=None):
    carry = list(arrays[:carries])
    seqs = arrays[carries:carries + xs]
    consts = list(arrays[carries + xs:])
    ys = [np.empty((length,) + o.shape, o.dtype.np) for o in body.outputs[carries:]]
    for t in (range(length - 1, -1, -1) if reverse else range(length)):
        out = run(body, carry + [s[t] for s in seqs] + consts)
        carry = out[:carries]
        for y, value in zip(ys, out[carries:]):
            y[t] = value
    return tuple(carry) + tuple(ys)


# Loops and branches are differentiated and batched on tensors, by the front end and the
# transforms (the rules trace new bodies): ops.registry.rule finds them from these names.
_VJP = "symgrad.frontend.control.vjp:"
_VMAP = "symgrad.transforms.control_batching:"


register(OpDef(
    name="scan", kind=OTHER, shape=_scan_shape, dtype=_scan_dtype, numpy=_np_scan,
    kernel="control",
    tensor_rules=(("vjp", _VJP + "scan_vjp"), ("vmap", _VMAP + "batched_scan"),
                  ("residuals", _VJP + "storing"),
                  ("checkpointed", "symgrad.frontend.control.checkpoint:checkpointed_scan")),
    bodies=("body",), n_outputs=lambda body, **_: len(body.outputs),
    doc="a loop of static length over carries and sequences (JAX's lax.scan)"))


# ------------------------------------------------------------------ while

def _while_shape(*shapes, cond, body, carries, index):
    _check_operands("while", cond, shapes)
    _check_operands("while", body, shapes)
    _carried("while", body, carries)
    if len(body.outputs) != carries:
        raise ShapeError(f"while: the body returns {len(body.outputs)} values for {carries} "
                         f"carries")
    if len(cond.outputs) != 1 or cond.outputs[0].shape != () or \
            cond.outputs[0].dtype.name != "bool":
        raise ShapeError("while: the condition must return one bool[] value")
    return tuple(body.outputs[index].shape)


def _np_while(*arrays, run, cond, body, carries, index=None):
    carry = list(arrays[:carries])
    consts = list(arrays[carries:])
    while bool(run(cond, carry + consts)[0]):
        carry = run(body, carry + consts)
    return tuple(carry)


register(OpDef(
    name="while", kind=OTHER, shape=_while_shape, dtype=_scan_dtype, numpy=_np_while,
    kernel="control",
    tensor_rules=(("vjp", _VJP + "while_vjp"), ("vmap", _VMAP + "batched_while")),
    bodies=("cond", "body"), n_outputs=lambda body, **_: len(body.outputs),
    doc="a loop that runs while cond(carry) holds (JAX's lax.while_loop)"))


# ------------------------------------------------------------------ while_grad

def _while_grad_shape(*shapes, cond, body, step, carries, index, seeds=()):
    forward = shapes[:len(cond.inputs)]
    _check_operands("while_grad", cond, forward)
    _check_operands("while_grad", body, forward)
    _carried("while_grad", body, carries)
    extras = tuple(o.shape for o in body.outputs[carries:])
    seed = shapes[len(cond.inputs):]
    _check_operands("while_grad", step, tuple(seed) + tuple(forward[:carries]) + extras +
                    tuple(forward[carries:]))
    _carried("while_grad", step, len(seed))
    return tuple(step.outputs[index].shape)


def _while_grad_dtype(*dtypes, step, index, **_):
    return step.outputs[index].dtype


def _np_while_grad(*arrays, run, cond, body, step, carries, index=None, seeds=()):
    n = len(cond.inputs)
    carry, consts = list(arrays[:carries]), list(arrays[carries:n])
    tape = []
    while bool(run(cond, carry + consts)[0]):
        out = run(body, carry + consts)
        tape.append(carry + out[carries:])
        carry = out[:carries]
    r = list(arrays[n:])
    for stored in reversed(tape):
        r = run(step, r + stored + consts)
    return tuple(r)


register(OpDef(
    name="while_grad", kind=OTHER, shape=_while_grad_shape, dtype=_while_grad_dtype,
    kernel="control",
    tensor_rules=(("vjp", _VJP + "while_grad_vjp"), ("vmap", _VMAP + "batched_while_grad")),
    numpy=_np_while_grad, bodies=("cond", "body", "step"),
    n_outputs=lambda step, **_: len(step.outputs),
    doc="reverse mode through a while loop: the loop, then its steps' VJPs backwards"))


# ------------------------------------------------------------------ cond

def _cond_shape(pred, *shapes, branches, index):
    if tuple(pred) != ():
        raise ShapeError(f"cond: the predicate must be a single value, got shape {tuple(pred)}")
    first = branches[0]
    for g in branches:
        _check_operands("cond", g, shapes)
        if [(o.shape, o.dtype) for o in g.outputs] != \
                [(o.shape, o.dtype) for o in first.outputs]:
            raise ShapeError("cond: the branches return values of different types")
    return tuple(first.outputs[index].shape)


def _cond_dtype(*dtypes, branches, index):
    return branches[0].outputs[index].dtype


def _np_cond(pred, *arrays, run, branches, index=None):
    return tuple(run(branches[int(bool(pred))], list(arrays)))


register(OpDef(
    name="cond", kind=OTHER, shape=_cond_shape, dtype=_cond_dtype, numpy=_np_cond,
    kernel="control",
    tensor_rules=(("vjp", _VJP + "cond_vjp"), ("vmap", _VMAP + "batched_cond")),
    bodies=("branches",), n_outputs=lambda branches, **_: len(branches[0].outputs),
    doc="one of two closed graphs, chosen by a predicate (torch.cond, JAX's lax.cond)"))


# ------------------------------------------------------------------ guard

def _guard_shape(pred, *, expect, number):
    if tuple(pred) != ():
        raise ShapeError(f"guard: the predicate must be a single value, got shape "
                         f"{tuple(pred)}")
    return ()


def _guard_dtype(pred, **_):
    if pred is not bool_:
        raise TypeError(f"guard: the predicate must be bool, got {pred.name}")
    return bool_


register(OpDef(
    name="guard", kind=OTHER, dependence="none", shape=_guard_shape, dtype=_guard_dtype,
    kernel="guard",
    numpy=lambda pred, *, expect, number: np.bool_(bool(pred) == expect),
    doc="a decision of Python control flow taken while tracing: pred == expect"))


# ------------------------------------------------------------------ poison

def _poison(*_, message, **__):
    raise NotImplementedError(message)


register(OpDef(
    name="poison", kind=OTHER, dependence="none",
    kernel="poison",
    shape=lambda *_, shape_to, **__: tuple(shape_to), dtype=lambda *_, dtype, **__: dtype,
    numpy=_poison, doc="a value that cannot be computed; raises its message if used"))
