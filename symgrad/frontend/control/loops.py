"""Loops and branches: ``scan``, ``fori_loop``, ``while_loop`` and ``cond``.

Layer: front end, above ``bodies``/``control_apply`` (``control_vjp``, above this module,
holds the backward rules; importing the front end registers them). Input: Python functions
(a loop body, a condition, two branches) and pytrees of tensors. Output: their results, with
JAX's ``lax`` signatures (``cond`` also takes torch's ``torch.cond(pred, true_fn, false_fn,
operands)`` spelling).

Eagerly they run Python: a loop calls the body once per step on eager tensors, and autograd
records every step, as it would for the user's own loop. Inside ``@symgrad.compile`` each body
is traced once into a closed graph and the call becomes one application of ``ops.control``'s
``scan``/``while``/``cond``: the generated C runs a real loop or branch (see ``lower.control``).
A carry keeps its type from step to step; a Python number in ``init`` takes the type the body
gives it (JAX's weak types), anything else must match exactly.

``fori_loop`` with Python ``int`` bounds is a ``scan`` (reverse-differentiable, like JAX's); with
a traced bound it is a ``while`` whose trip count is only known when the C runs. Errors name
the body and its carry as the user wrote them (``Names``: a ``fori_loop``'s ``val``, never the
``(i, val)`` its loop carries). A Python ``if`` inside a body is lowered to ``cond``
(``branching``).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

import numpy as np

from ... import dtypes
from ...pytree import TreeDef, count, flatten, unflatten
from ..core import sources
from ..core.apply import apply, as_tensor
from .bodies import Body, Like, trace_body
from .branching import lowering_ifs
from ...ops.registry import rule
from .apply import apply_control, differentiable
from ..functions.shapes import stack
from ..core.tensor import Tensor
from ...dims import same_shape

__all__ = ["scan", "fori_loop", "while_loop", "cond"]


def _tracing() -> bool:
    return sources.current() is not None


def _tensors(leaves: list) -> list:
    out = []
    for leaf in leaves:
        t = as_tensor(leaf)
        if not isinstance(leaf, Tensor) and isinstance(leaf, (bool, int, float)):
            t._weak = True          # a Python number: its type may follow the body's
        out.append(t)
    return out


class Names:
    """How errors name a loop's body and its carry: ``what`` (the body), and with ``fori``,
    a ``fori_loop``'s, whose loop carries ``(i, val)``: errors speak of ``val`` as the user
    passed it (``init_val``), never of the pair."""

    def __init__(self, what: str, fori: bool = False) -> None:
        self.what, self.fori = what, fori

    def path(self, path: str) -> str:
        """A leaf's path in the carry (``carry[1][0]``) as the user knows it (``val[0]``)."""
        if self.fori and path.startswith("carry[1]"):
            return "val" + path[len("carry[1]"):]
        return path

    def structure(self, tree: TreeDef) -> str:
        kids = tree.children
        if self.fori and tree.kind == "tuple" and len(kids) == 2:
            return kids[1].describe()
        return tree.describe()

    def carry(self) -> str:
        return "val" if self.fori else "the carry"


_SCAN, _WHILE = Names("scan body"), Names("while_loop body_fun")
_FORI = Names("fori_loop body_fun", fori=True)


# ------------------------------------------------------------------ scan

def scan(f: Callable, init: Any, xs: Any = None, length: int | None = None,
         reverse: bool = False, unroll: int = 1, checkpoint: int | None = None) -> tuple:
    """``(final carry, stacked ys)`` of ``carry, y = f(carry, x)`` over the leading axis of
    ``xs`` (JAX's ``lax.scan``); ``xs`` may be None with ``length`` given. ``unroll`` is
    accepted for JAX compatibility (the C compiler unrolls small loops itself).
    ``checkpoint=k``: the backward stores one carry every ``k`` steps and recomputes the
    others (``frontend.control.checkpoint``), with the same gradients."""
    x_leaves, x_tree = flatten(xs)
    x_t = [as_tensor(x) for x in x_leaves]
    length = _scan_length(x_t, length)
    _check_checkpoint("scan", checkpoint)
    if not _tracing():
        return _eager_scan(f, init, x_t, x_tree, xs is None, length, reverse)
    return _traced_scan(f, init, x_t, x_tree, xs is None, length, reverse, checkpoint)


def _check_checkpoint(what: str, checkpoint) -> None:
    if checkpoint is not None and (int(checkpoint) < 1 or int(checkpoint) != checkpoint):
        raise ValueError(f"{what}: checkpoint must be a positive int, got {checkpoint!r}")


def _scan_length(x_t: list, length: int | None) -> int:
    lengths = {t.shape[0] if t.ndim else None for t in x_t}
    if None in lengths:
        raise ValueError("scan: every leaf of xs needs a leading axis to scan over; got a "
                         "0-d tensor")
    if length is not None:
        length = int(length)
        if length < 0:
            raise ValueError(f"scan: length must be non-negative, got {length}")
        lengths.add(length)
    if len(lengths) > 1:
        raise ValueError(f"scan: the leading axes of xs (and length) disagree: "
                         f"{sorted(lengths)}")
    if not lengths:
        raise ValueError("scan: with xs=None, give length")
    return lengths.pop()


def _eager_scan(f, init, x_t, x_tree, no_xs, length, reverse):
    if length == 0:
        return _empty_scan(f, init, x_t, x_tree, no_xs)
    carry, ys = init, []
    for t in (range(length - 1, -1, -1) if reverse else range(length)):
        x = None if no_xs else unflatten(x_tree, [leaf[t] for leaf in x_t])
        carry, y = _pair(f(carry, x), "scan body")
        ys.append(flatten(y))
    if reverse:
        ys.reverse()
    tree = ys[0][1]
    stacked = [stack([_tensors([y[0][k]])[0] for y in ys]) for k in range(count(tree))]
    return carry, unflatten(tree, stacked)


def _empty_scan(f, init, x_t, x_tree, no_xs):
    """A scan of no steps, eagerly: the body is traced only to learn the ys' types."""
    with sources.recording(sources.Recording()):
        body, nc, _ = _scan_body(f, _tensors(flatten(init)[0]), flatten(init)[1], x_t,
                                 x_tree, no_xs)
    _, y_tree = _split_tree(body.tree)
    ys = [Tensor(np.zeros((0,) + tuple(t.shape), t.dtype.np), None)
          for t in body.outputs[nc:]]
    return init, unflatten(y_tree, ys)


def _pair(result, what: str) -> tuple:
    if not (isinstance(result, (tuple, list)) and len(result) == 2):
        raise TypeError(f"{what} must return a pair (carry, y), got {type(result).__name__}")
    return result[0], result[1]


def _split_tree(tree: TreeDef) -> tuple:
    if tree.kind not in ("tuple", "list") or len(tree.children) != 2:
        raise TypeError(f"scan body must return a pair (carry, y), got the structure "
                        f"{tree.describe()}")
    return tree.children


def _scan_body(f, init_t, init_tree, x_t, x_tree, no_xs, names: Names = _SCAN) -> tuple:
    """(Body, number of carries, the init tensors retyped) of ``f`` traced for one step."""
    nc, what = len(init_t), names.what

    def call(fn, ins):
        x = None if no_xs else unflatten(x_tree, ins[nc:])
        return tuple(_pair(fn(unflatten(init_tree, ins[:nc]), x), "scan body"))
    x_like = [Like(t.shape[1:], t.dtype) for t in x_t]
    labels = [f"c{k}" for k in range(nc)] + [f"x{k}" for k in range(len(x_t))]
    for _attempt in range(2):
        body = trace_body(f, init_t + x_like, labels, lowering_ifs(call, what, switch_cond),
                          what)
        carry_tree, _ = _split_tree(body.tree)
        retyped = _carry_types(init_t, init_tree, carry_tree, body.outputs[:nc], names)
        if retyped is None:
            return body, nc, init_t
        init_t = retyped
    raise AssertionError("scan: the carry types did not settle")


def _carry_types(init_t, init_tree, out_tree, outs, names: Names) -> list | None:
    """None if the body's carries have the init's types; else the init retyped where it was
    a Python number (a weak type follows the body); TypeError for any other mismatch."""
    what = names.what
    if out_tree != init_tree:
        raise TypeError(f"{what}: {names.carry()} has the structure "
                        f"{names.structure(init_tree)} on entry and "
                        f"{names.structure(out_tree)} on return; they must be the same")
    retyped, changed = list(init_t), False
    paths: list = []
    flatten(unflatten(init_tree, init_t), "carry", paths)
    for k, (i, o) in enumerate(zip(init_t, outs)):
        if same_shape(tuple(i.shape), tuple(o.shape)) and i.dtype is o.dtype:
            continue
        if i._weak and same_shape(tuple(i.shape), tuple(o.shape)):
            retyped[k] = apply("cast", i, dtype=o.dtype) if i.is_traced else \
                as_tensor(i, o.dtype)
            retyped[k]._weak, changed = True, True
            continue
        raise TypeError(f"{what}: {names.path(paths[k])} enters the body as {i.dtype.name}"
                        f"{list(i.shape)} and leaves it as {o.dtype.name}{list(o.shape)}; a "
                        f"carry must keep its shape and dtype (cast it in the body, or start "
                        f"from an init of that type)")
    return retyped if changed else None


def _traced_scan(f, init, x_t, x_tree, no_xs, length, reverse, checkpoint=None,
                 names: Names = _SCAN):
    init_leaves, init_tree = flatten(init)
    body, nc, init_t = _scan_body(f, _tensors(init_leaves), init_tree, x_t, x_tree, no_xs,
                                  names)
    _, y_tree = _split_tree(body.tree)
    graph = body.graph()
    n_user = len(graph.outputs)
    operands = init_t + x_t + body.captures
    if checkpoint is not None and checkpoint < length and differentiable(operands):
        outs = rule("scan", "checkpointed")(graph, operands, length, bool(reverse), nc,
                                          len(x_t), int(checkpoint))
        return unflatten(init_tree, outs[:nc]), unflatten(y_tree, outs[nc:n_user])
    attrs = {"body": graph, "length": length, "reverse": bool(reverse), "carries": nc,
             "xs": len(x_t)}
    outs = apply_control("scan", operands, attrs)
    return unflatten(init_tree, outs[:nc]), unflatten(y_tree, outs[nc:n_user])


# ------------------------------------------------------------------ fori_loop

def fori_loop(lower: Any, upper: Any, body_fun: Callable, init_val: Any,
              checkpoint: int | None = None) -> Any:
    """``body_fun(i, val)`` for ``i`` in ``range(lower, upper)`` (JAX's ``lax.fori_loop``).
    ``checkpoint=k`` (Python int bounds): see ``scan``."""
    for name, bound in (("lower", lower), ("upper", upper)):
        if isinstance(bound, float) or (isinstance(bound, Tensor) and
                                        not bound.dtype.is_integer):
            got = f"a {bound.dtype.name} tensor" if isinstance(bound, Tensor) else repr(bound)
            raise TypeError(f"fori_loop: {name} must be an integer (a Python int or an "
                            f"integer tensor), got {got}")
    lo, hi = _static_int(lower), _static_int(upper)
    _check_checkpoint("fori_loop", checkpoint)
    if not _tracing():
        val = init_val
        for i in range(int(lower), int(upper)):
            val = body_fun(i, val)
        return val
    if lo is not None and hi is not None:
        i0 = _tensors([lo])[0]

        def step(carry, _):
            i, val = carry
            return (i + 1, body_fun(i, val)), None
        (_, val), _ = _traced_scan(step, (i0, init_val), [], None, True, max(hi - lo, 0),
                                   False, checkpoint, _FORI)
        return val
    if checkpoint is not None:
        raise ValueError("fori_loop: checkpoint= needs Python int bounds (a traced trip "
                         "count runs as a while loop, whose backward keeps every carry)")
    bound = as_tensor(upper)
    attrs, operands, tree = traced_while(
        lambda c: c[0] < bound, lambda c: (c[0] + 1, body_fun(c[0], c[1])),
        (_tensors([lower])[0] if not isinstance(lower, Tensor) else lower, init_val), _FORI)
    _, val = unflatten(tree, apply_control("while", operands, attrs))
    return val


def _static_int(v) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, Tensor) and not v.is_traced and v.numel() == 1 and \
            not v.dtype.is_floating:
        return int(v.item())
    return None


# ------------------------------------------------------------------ while_loop

def while_loop(cond_fun: Callable, body_fun: Callable, init_val: Any) -> Any:
    """``val = body_fun(val)`` while ``cond_fun(val)`` (JAX's ``lax.while_loop``)."""
    if not _tracing():
        val = init_val
        while bool(cond_fun(val)):
            val = body_fun(val)
        return val
    attrs, operands, tree = traced_while(cond_fun, body_fun, init_val)
    return unflatten(tree, apply_control("while", operands, attrs))


def traced_while(cond_fun: Callable, body_fun: Callable, init_val: Any,
                 names: Names = _WHILE) -> tuple:
    """(the attributes, the operands, the carry's structure) of the ``while`` application
    that ``while_loop`` makes while tracing."""
    leaves, tree = flatten(init_val)
    what = names.what
    init_t = _tensors(leaves)
    labels = [f"c{k}" for k in range(len(init_t))]
    for _attempt in range(2):
        body = trace_body(body_fun, init_t, labels, lowering_ifs(
            lambda fn, ins: fn(unflatten(tree, ins)), what, switch_cond), what)
        retyped = _carry_types(init_t, tree, body.tree, body.outputs, names)
        if retyped is None:
            break
        init_t = retyped
    test = trace_body(cond_fun, init_t, labels, lowering_ifs(lambda fn, ins: _predicate(fn(
        unflatten(tree, ins)), "while_loop cond_fun"), "while_loop cond_fun", switch_cond),
        "while_loop cond_fun")
    cond_graph, body_graph = _aligned(test, body)
    attrs = {"cond": cond_graph, "body": body_graph, "carries": len(init_t)}
    return attrs, init_t + test.captures + body.captures, tree


def _predicate(value, what: str) -> Tensor:
    t = as_tensor(value)
    if t.numel() != 1:
        raise TypeError(f"{what} must return a single boolean value, got shape "
                        f"{list(t.shape)}")
    t = apply("reshape", t, shape_to=()) if t.ndim else t
    return t if t.dtype is dtypes.bool_ else apply("ne", t, 0)


def _aligned(first: Body, second: Body) -> tuple:
    """The graphs of two bodies traced on the same leading inputs, lined up to take the same
    operands: the leading inputs, the first's captures, then the second's."""
    firsts, seconds = list(first.capture_inputs), list(second.capture_inputs)
    return (first.graph(after=first.unused_inputs(seconds, len(first.inputs) + len(firsts))),
            second.graph(before=second.unused_inputs(firsts, len(second.inputs))))


# ------------------------------------------------------------------ cond

def cond(pred: Any, true_fn: Callable, false_fn: Callable, *operands: Any) -> Any:
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``. Called as torch's
    ``torch.cond(pred, true_fn, false_fn, operands)`` with one tuple or list of operands, the
    branches receive its items; otherwise, as JAX's ``lax.cond``, the operands themselves."""
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    return switch_cond(pred, true_fn, false_fn, operands)


def switch_cond(pred: Any, true_fn: Callable, false_fn: Callable, operands: tuple) -> Any:
    """``cond`` with the operands given as a tuple (each branch is called with them)."""
    if not isinstance(pred, Tensor) or not pred.is_traced or not _tracing():
        return (true_fn if bool(pred) else false_fn)(*operands)
    leaves, tree = flatten(operands)
    ops = _tensors(leaves)
    names = [f"a{k}" for k in range(len(ops))]

    def call(fn, ins):
        return fn(*unflatten(tree, ins))
    no = trace_body(false_fn, ops, names, lowering_ifs(call, "cond false_fn", switch_cond),
                    "cond false_fn")
    yes = trace_body(true_fn, ops, names, lowering_ifs(call, "cond true_fn", switch_cond),
                     "cond true_fn")
    _same_outputs(no, yes)
    graphs = _aligned(no, yes)
    outs = apply_control("cond", [_predicate(pred, "cond's predicate")] + ops + no.captures +
                         yes.captures, {"branches": graphs})
    return unflatten(no.tree, outs)


def _same_outputs(no: Body, yes: Body) -> None:
    if no.tree != yes.tree:
        raise TypeError(f"cond: the branches return different structures: "
                        f"{yes.tree.describe()} (true_fn) and {no.tree.describe()} (false_fn)")
    for k, (a, b) in enumerate(zip(yes.outputs, no.outputs)):
        if not same_shape(tuple(a.shape), tuple(b.shape)) or a.dtype is not b.dtype:
            raise TypeError(f"cond: output {k} is {a.dtype.name}{list(a.shape)} in true_fn "
                            f"and {b.dtype.name}{list(b.shape)} in false_fn; the branches "
                            f"must return the same types")
