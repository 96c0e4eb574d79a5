"""Forward mode (``jvp``) and reverse mode with a cotangent (``vjp``), on tensors.

Layer: transforms. Input: a Python function, its primal arguments (pytrees of tensors,
arrays, numbers), tangents or cotangents. Output: tensors (eager values or traced nodes, on the
autograd tape, so every result differentiates again).

Forward mode transposes reverse mode, and no op has a JVP rule of its own. ``vjp`` at a
cotangent ``v`` is ``v -> J^T v``, a *linear* function of ``v`` that the VJP rules build as
graph; its own VJP at a tangent ``u`` is ``J u``, the same at every ``v``. So ``jvp`` runs
the function, a backward pass from a zero cotangent ``v`` that requires grad, and a backward
pass of that from ``u`` to ``v`` (``frontend.autograd.push_forward``). What the second pass
builds reads the forward values and ``u``; what reads ``v`` (a reverse loop's stored
cotangents, say) is dead code the optimizer removes. Every VJP rule is linear in its
cotangent (tests/transforms/test_op_rules.py checks ``<v, J u> == <J^T v, u>`` for each
op); a custom ``autograd.Function`` whose backward is not gets the derivative of its
backward at a zero cotangent.

Why this instead of a JVP rule per op (JAX writes JVP rules and derives VJPs by transposing
them; symgrad has the VJP rules already, ~110 of them, checked against SymPy and finite
differences): one rule per op stays one rule per op, every op (loops and branches included,
whose VJPs are loops and branches) gets forward mode at once, and the two modes cannot
disagree. The cost is the second backward pass at trace time; the graph it leaves is the
JVP (``u * cos(x)`` for ``sin``), which the optimizer fuses like any other. The reverse of
``while_loop`` is differentiable in its seed only: that VJP is a loop carrying tangents
(``frontend.control.vjp``), which is what forward mode through a while loop needs.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..frontend.core import grad_mode
from ..frontend.core.apply import as_tensor, full
from ..frontend.core.engine import differentiable, push_forward, run_backward
from ..frontend.core.tensor import Tensor
from ..pytree import flatten, unflatten
from ..dims import same_shape


def leaves_of(tree_value: Any) -> tuple[list, Any]:
    """(the leaves of ``tree_value`` as tensors, its structure)."""
    leaves, tree = flatten(tree_value)
    return [as_tensor(getattr(v, "_sg_tensor", v)) for v in leaves], tree


def _float_leaf(t: Tensor, what: str, name: str) -> Tensor:
    if not t.dtype.is_differentiable:
        raise TypeError(f"{name}: {what} is {t.dtype.name}; only floating point inputs are "
                        f"differentiated (cast it to float32 or float64)")
    return differentiable(t)


def split_aux(out: Any, has_aux: bool, name: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(f"{name}: has_aux=True requires the function to return a pair "
                        f"(output, aux), got {type(out).__name__}")
    return out[0], out[1]


def jvp_call(fn: Callable, primals: tuple, tangents: tuple, has_aux: bool, name: str):
    """``(fn(*primals), J tangents[, aux])``, structured like ``fn``'s output."""
    p_leaves, p_tree = leaves_of(tuple(primals))
    t_leaves, t_tree = leaves_of(tuple(tangents))
    if t_tree != p_tree:
        raise ValueError(f"{name}: tangents must have the structure of primals: primals are "
                         f"{p_tree.describe()}, tangents {t_tree.describe()}")
    us = [_tangent(u, p, k, name) for k, (u, p) in enumerate(zip(t_leaves, p_leaves))]
    with grad_mode.enable_grad():
        xs = [_float_leaf(p, f"primal leaf {k}", name) for k, p in enumerate(p_leaves)]
        out, aux = split_aux(fn(*unflatten(p_tree, xs)), has_aux, name)
    o_leaves, o_tree = leaves_of(out)
    tangent_out = [t if t is not None else full(o, 0.0)
                   for t, o in zip(push_forward(o_leaves, xs, us), o_leaves)]
    result = (unflatten(o_tree, o_leaves), unflatten(o_tree, tangent_out))
    return result + (aux,) if has_aux else result


def _tangent(u: Tensor, p: Tensor, k: int, name: str) -> Tensor:
    if not same_shape(tuple(u.shape), tuple(p.shape)):
        raise ValueError(f"{name}: tangent leaf {k} has shape {tuple(u.shape)}, but its "
                         f"primal has shape {tuple(p.shape)}")
    return u if u.dtype is p.dtype else as_tensor(u, p.dtype)


def vjp_call(fn: Callable, primals: tuple, has_aux: bool, name: str):
    """``(fn(*primals), vjp_fn[, aux])``: ``vjp_fn(cotangents)`` returns one cotangent per
    primal (a tuple, each shaped like its primal), building on the same tape."""
    p_leaves, p_tree = leaves_of(tuple(primals))
    with grad_mode.enable_grad():
        xs = [_float_leaf(p, f"primal leaf {k}", name) for k, p in enumerate(p_leaves)]
        out, aux = split_aux(fn(*unflatten(p_tree, xs)), has_aux, name)
    o_leaves, o_tree = leaves_of(out)

    def vjp_fn(cotangents):
        c_leaves, c_tree = leaves_of(cotangents)
        if c_tree != o_tree:
            raise ValueError(f"{name}: the cotangent must have the structure of the output: "
                             f"{o_tree.describe()}, got {c_tree.describe()}")
        roots = []
        for k, (o, c) in enumerate(zip(o_leaves, c_leaves)):
            if not same_shape(tuple(c.shape), tuple(o.shape)):
                raise ValueError(f"{name}: cotangent leaf {k} has shape {tuple(c.shape)}, but "
                                 f"the output has shape {tuple(o.shape)}")
            if o.requires_grad and o.dtype.is_differentiable:
                roots.append((o, as_tensor(c, o.dtype)))
        with grad_mode.enable_grad():
            gs = run_backward(roots, retain_graph=True, create_graph=True,
                              inputs=xs) if roots else [None] * len(xs)
        gs = [g if g is not None else full(x, 0.0) for g, x in zip(gs, xs)]
        return tuple(unflatten(p_tree, gs))
    result = (unflatten(o_tree, o_leaves), vjp_fn)
    return result + (aux,) if has_aux else result
