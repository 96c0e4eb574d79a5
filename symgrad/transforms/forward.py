"""Forward mode (``jvp``) and reverse mode with a cotangent (``vjp``), on tensors.

Layer: transforms. Input: a Python function, its primal arguments (pytrees of tensors,
arrays, numbers), tangents or cotangents. Output: tensors (eager values or traced nodes, on the
autograd tape, so every result differentiates again).

Forward mode transposes reverse mode, and no op has a JVP rule of its own. ``vjp`` at a
cotangent ``v`` is ``v -> J^T v``, a *linear* function of ``v`` that the VJP rules build as
graph; its own VJP at a tangent ``u`` is ``J u``. So ``jvp`` runs the function, a backward
pass from a placeholder cotangent (graph that depends on ``v``), and a backward pass of that
from ``u`` to the placeholder. The result reads the forward values and ``u`` only: nothing
that depends on the placeholder survives, because every VJP rule is linear in its cotangent
(the check below makes a rule that is not an error, not a wrong tangent).

Why this instead of a JVP rule per op (JAX writes JVP rules and derives VJPs by transposing
them; symgrad has the VJP rules already, ~110 of them, checked against SymPy and finite
differences): one rule per op stays one rule per op, every op (loops and branches included,
whose VJPs are loops and branches) gets forward mode at once, and the two modes cannot
disagree. The cost is the second backward pass at trace time; the graph it leaves is the
JVP (``u * cos(x)`` for ``sin``), which the optimizer fuses like any other. The one op whose
VJP is not differentiable, the reverse of ``while_loop``, gets its forward mode from
``jvp_while`` instead (a loop carrying the tangents).
"""

from __future__ import annotations

from typing import Any, Callable

from ..frontend import grad_mode, sources
from ..frontend.apply import as_tensor, full
from ..frontend.autograd import differentiable, run_backward
from ..frontend.tensor import Tensor
from ..ir.closure import body_input, new_scope
from ..ir.graph import toposort
from ..pytree import flatten, unflatten


def leaves_of(tree_value: Any, what: str, name: str) -> tuple[list, Any]:
    """(the leaves of ``tree_value`` as tensors, its structure)."""
    leaves, tree = flatten(tree_value)
    return [as_tensor(getattr(v, "_sg_tensor", v)) for v in leaves], tree


def _float_leaf(t: Tensor, what: str, name: str) -> Tensor:
    if not t.dtype.is_floating:
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


def _placeholder(like: Tensor) -> Tensor:
    """A stand-in cotangent of ``like``'s type that requires grad: zeros eagerly (the value
    does not matter: the result is linear in it), a fresh opaque input node when traced."""
    if like._value is not None:
        t = full(like, 0.0)
    else:
        node = body_input(0, "cotangent", like.dtype, tuple(like.shape), new_scope())
        rec = sources.current()
        if rec is not None and rec.body is not None:
            rec.body.made(node)
        t = Tensor(None, node)
    t._requires_grad = True
    return t


def linear_in(cotangents: list, tangents: list, outputs: list) -> list:
    """``J u`` given the pairs: the VJP of the (linear) map from the placeholders
    ``cotangents`` to the input cotangents ``outputs`` (None where an input has none), at
    the tangents ``tangents`` of those inputs."""
    roots = [(g, u) for g, u in zip(outputs, tangents) if g is not None and g._requires_grad]
    if not roots:
        return [None] * len(cotangents)
    return run_backward(roots, retain_graph=True, create_graph=True, inputs=cotangents)


def jvp_call(fn: Callable, primals: tuple, tangents: tuple, has_aux: bool, name: str):
    """``(fn(*primals), J tangents[, aux])``, structured like ``fn``'s output."""
    p_leaves, p_tree = leaves_of(tuple(primals), "primals", name)
    t_leaves, t_tree = leaves_of(tuple(tangents), "tangents", name)
    if t_tree != p_tree:
        raise ValueError(f"{name}: tangents must have the structure of primals: primals are "
                         f"{p_tree.describe()}, tangents {t_tree.describe()}")
    us = [_tangent(u, p, k, name) for k, (u, p) in enumerate(zip(t_leaves, p_leaves))]
    with grad_mode.enable_grad():
        xs = [_float_leaf(p, f"primal leaf {k}", name) for k, p in enumerate(p_leaves)]
        out, aux = split_aux(fn(*unflatten(p_tree, xs)), has_aux, name)
        o_leaves, o_tree = leaves_of(out, "output", name)
        diff = [o for o in o_leaves if o._requires_grad and o.dtype.is_floating]
        vs = [_placeholder(o) for o in diff]
        gs = run_backward(list(zip(diff, vs)), retain_graph=True, create_graph=True,
                          inputs=xs) if diff else [None] * len(xs)
        ts = linear_in(vs, us, gs)
    _check_linear(ts, vs, name)
    by_output = dict(zip(map(id, diff), ts))
    tangent_out = [by_output.get(id(o)) for o in o_leaves]
    tangent_out = [t if t is not None else full(o, 0.0) for t, o in zip(tangent_out, o_leaves)]
    result = (unflatten(o_tree, o_leaves), unflatten(o_tree, tangent_out))
    return result + (aux,) if has_aux else result


def _tangent(u: Tensor, p: Tensor, k: int, name: str) -> Tensor:
    if tuple(u.shape) != tuple(p.shape):
        raise ValueError(f"{name}: tangent leaf {k} has shape {tuple(u.shape)}, but its "
                         f"primal has shape {tuple(p.shape)}")
    return u if u.dtype is p.dtype else as_tensor(u, p.dtype)


def _check_linear(results: list, placeholders: list, name: str) -> None:
    """A traced tangent must not read a placeholder (a backward rule that is not linear in
    its cotangent, such as a custom Function's clipping backward, would make it)."""
    nodes = [t._node for t in results if t is not None and t._value is None]
    marks = {v._node for v in placeholders if v._value is None}
    if nodes and marks and any(n in marks for n in toposort(nodes)):
        raise NotImplementedError(
            f"{name}: forward mode needs backward rules that are linear in the cotangent, and "
            f"one of the function's is not (a custom autograd.Function whose backward is "
            f"nonlinear?); give it a linear backward or use reverse mode (vjp, jacrev)")


def vjp_call(fn: Callable, primals: tuple, has_aux: bool, name: str):
    """``(fn(*primals), vjp_fn[, aux])``: ``vjp_fn(cotangents)`` returns one cotangent per
    primal (a tuple, each shaped like its primal), building on the same tape."""
    p_leaves, p_tree = leaves_of(tuple(primals), "primals", name)
    with grad_mode.enable_grad():
        xs = [_float_leaf(p, f"primal leaf {k}", name) for k, p in enumerate(p_leaves)]
        out, aux = split_aux(fn(*unflatten(p_tree, xs)), has_aux, name)
    o_leaves, o_tree = leaves_of(out, "output", name)

    def vjp_fn(cotangents):
        c_leaves, c_tree = leaves_of(cotangents, "cotangents", name)
        if c_tree != o_tree:
            raise ValueError(f"{name}: the cotangent must have the structure of the output: "
                             f"{o_tree.describe()}, got {c_tree.describe()}")
        roots = []
        for k, (o, c) in enumerate(zip(o_leaves, c_leaves)):
            if tuple(c.shape) != tuple(o.shape):
                raise ValueError(f"{name}: cotangent leaf {k} has shape {tuple(c.shape)}, but "
                                 f"the output has shape {tuple(o.shape)}")
            if o._requires_grad and o.dtype.is_floating:
                roots.append((o, as_tensor(c, o.dtype)))
        with grad_mode.enable_grad():
            gs = run_backward(roots, retain_graph=True, create_graph=True,
                              inputs=xs) if roots else [None] * len(xs)
        gs = [g if g is not None else full(x, 0.0) for g, x in zip(gs, xs)]
        return tuple(unflatten(p_tree, gs))
    result = (unflatten(o_tree, o_leaves), vjp_fn)
    return result + (aux,) if has_aux else result
