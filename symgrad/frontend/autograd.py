"""The autograd engine: reverse mode over the recorded backward graph, torch's way.

Layer: front end, above ``apply``. Input: root tensors and their cotangents. Output:
cotangent tensors for the leaves (accumulated into ``.grad``) or for requested inputs
(returned, like ``torch.autograd.grad``).

This is a tape engine, not a Graph -> Graph pass, and on purpose: the VJP rules apply ops to
tensors, which eagerly compute with NumPy and at trace time add nodes to the graph (JAX's rules
run under its trace the same way). So one engine serves eager autograd and compilation, and at
trace time the adjoint is an ordinary graph, differentiable again when ``create_graph`` is on.
It is the one place where a cotangent is summed back over the dimensions its input was
broadcast along.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import TracerValueError
from . import grad_mode, sources
from .apply import BUILDER, apply, as_tensor, full
from .function import AccumulateGrad, function_class, grad_edge
from .tensor import Tensor, size_text


def backward(t: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs=None) -> None:
    """``t.backward(...)``: accumulate d(t)/d(leaf), weighted by ``gradient``, into each
    leaf's ``.grad``."""
    if not t._requires_grad:
        raise RuntimeError("element 0 of tensors does not require grad and does not have a "
                           "grad_fn")
    if gradient is None:
        if t.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        gradient = full(t, 1.0)
    else:
        gradient = as_tensor(gradient, dtype=t.dtype)
        if gradient.shape != t.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[0] has a shape of {size_text(gradient.shape)} "
                f"and output[0] has a shape of {size_text(t.shape)}.")
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        raise NotImplementedError("backward(inputs=...) is not supported yet")
    run_backward([(t, gradient)], retain_graph=retain_graph, create_graph=create_graph)


def sum_to_shape(ct: Tensor, shape: tuple) -> Tensor:
    """Sum a cotangent back over the dimensions ``shape`` was broadcast along."""
    if ct.shape == shape:
        return ct
    lead = ct.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if s == 1 and ct.shape[lead + i] != 1)
    if axes:
        ct = apply("sum", ct, axes=axes)
    if ct.shape != shape:
        ct = apply("reshape", ct, shape_to=shape)
    return ct


def run_backward(roots: Sequence[tuple[Any, Any]], *, retain_graph: bool, create_graph: bool,
                 inputs: Sequence[Any] | None = None) -> list | None:
    """Propagate cotangents from ``roots`` [(tensor, cotangent)] to the leaves.

    Without ``inputs``, cotangents accumulate into the ``.grad`` of leaves (and of tensors that
    called ``retain_grad``). With ``inputs``, nothing is accumulated: the cotangent reaching
    each input is returned (None where none does), like ``torch.autograd.grad``; paths that
    run through one input to another are not followed (composites rely on that).
    """
    root_fns = [(grad_edge(t), g) for t, g in roots]
    targets: dict[Any, int] = {}
    for i, t in enumerate(inputs or ()):
        edge = grad_edge(t)
        if edge is not None:
            targets.setdefault(edge, i)
    topo = _order(root_fns, targets)
    needed = _needed(topo, targets, accumulate=inputs is None)
    if inputs is None and any(t._value is None or g._value is None for t, g in roots):
        _check_sinks_traced(needed)

    results: list = [None] * (len(inputs) if inputs is not None else 0)
    pending: dict[Any, Any] = {}
    for fn, g in root_fns:
        if fn is not None:
            pending[fn] = g if fn not in pending else pending[fn] + g
    with grad_mode.set_grad_enabled(create_graph):
        for fn in topo:
            g = pending.pop(fn, None)
            if fn in targets:
                # An input's cotangent: returned, and paths beyond it are not followed.
                if g is not None:
                    results[targets[fn]] = g if create_graph else g.detach()
                continue
            if g is None or fn not in needed:
                continue
            _deliver(fn, g, create_graph)
            if not isinstance(fn, AccumulateGrad) and any(
                    n in needed for n, _ in fn.next_functions if n is not None):
                with sources.attributed_to(fn.loc, f"(backward of {fn.name()})"):
                    _propagate(fn, g, needed, pending)
                if not retain_graph:
                    fn.release()
    return results if inputs is not None else None


def _order(root_fns: list, targets: dict) -> list:
    """The functions reachable from the roots (not beyond a target), in a topological order
    (Kahn's algorithm; iterative: graphs can be deep)."""
    deps: dict[Any, int] = {}
    stack = [fn for fn, _ in root_fns if fn is not None]
    seen = set(stack)
    while stack:
        fn = stack.pop()
        if fn in targets:
            continue   # nothing beyond an input is needed (and nothing there may be freed)
        for nxt, _ in fn.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    topo = []
    frontier = list(dict.fromkeys(fn for fn, _ in root_fns if fn is not None
                                  and deps.get(fn, 0) == 0))
    while frontier:
        fn = frontier.pop()
        topo.append(fn)
        if fn in targets:
            continue
        for nxt, _ in fn.next_functions:
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    frontier.append(nxt)
    return topo


def _needed(topo: list, targets: dict, accumulate: bool) -> set:
    """The functions on a path to something that consumes a cotangent: a target, or (when
    accumulating) a leaf's AccumulateGrad or a function whose output retains its grad."""
    needed: set = set()
    for fn in reversed(topo):
        if accumulate:
            sink = isinstance(fn, AccumulateGrad) or fn._retained is not None
        else:
            sink = fn in targets
        if sink or (fn not in targets and any(n in needed for n, _ in fn.next_functions)):
            needed.add(fn)
    return needed


def _propagate(fn, g, needed: set, pending: dict) -> None:
    """Apply ``fn``'s rule and add each input's cotangent (summed back over broadcast
    dimensions and cast to the input's dtype) to what that input has received so far."""
    cts = fn.apply(BUILDER, g)
    for (nxt, _), ct, (shape, dtype) in zip(fn.next_functions, cts, fn._input_meta):
        if nxt is None or ct is None or nxt not in needed:
            continue
        ct = sum_to_shape(ct, shape)
        if ct.dtype is not dtype:
            ct = apply("cast", ct, dtype=dtype)
        pending[nxt] = ct if nxt not in pending else pending[nxt] + ct


def _check_sinks_traced(needed: set) -> None:
    """A backward at trace time must not write into a tensor that lives outside the trace.

    Its cotangents are graph nodes, valid only inside the function being compiled; stored in
    the ``.grad`` of a tensor from outside it (a global parameter the function closes over)
    they would outlive the trace as a placeholder, and the compiled code could never update
    that tensor anyway. An eager tensor created during this trace is the function's own
    (``w = ones(3, requires_grad=True)`` in its body). Checked before anything is delivered,
    so no .grad is half written when we raise.
    """
    rec = sources.current()

    def foreign(t) -> bool:
        return t._value is not None and t._trace is not rec

    for fn in needed:
        if isinstance(fn, AccumulateGrad):
            outside = [fn.variable] if foreign(fn.variable) else []
        else:
            outside = [t for t in fn.retained() if foreign(t)]
        if outside:
            loc = sources.user_loc()
            where = f" at {loc.file}:{loc.line} ({loc.text})" if loc else ""
            shape = tuple(outside[0].shape)
            raise TracerValueError(
                f"backward(){where} inside @symgrad.compile would store a traced gradient in "
                f"the .grad of a tensor of shape {shape} created outside the compiled "
                f"function; compiled code cannot update tensors it does not own. Pass that "
                f"tensor as an argument (call .requires_grad_() on it inside) and return its "
                f".grad, or use symgrad.grad / symgrad.value_and_grad.")


def _deliver(fn, g, create_graph) -> None:
    """Hand a finished cotangent to whoever keeps it: a leaf's .grad, or retain_grad's."""
    if isinstance(fn, AccumulateGrad):
        leaf = fn.variable
        g = g if create_graph else g.detach()
        old = leaf._grad
        if old is None:
            leaf._grad = g.clone() if g._value is not None and not create_graph else g
        elif create_graph or old.requires_grad:
            leaf._grad = old + g    # out of place: the sum is part of a differentiable graph
        else:
            # torch accumulates in place here (``grad += new``), so a reference taken before
            # this backward (``g1 = x.grad``) sees the sum. Rebind the tensor object's contents
            # rather than write into its array: arrays are never mutated (eager tensors cache
            # constant nodes of them), and a traced grad has no storage to write into.
            total = old + g
            old._value, old._node = total._value, total._node
        return
    if fn._retained is not None:
        for t in fn.retained():
            new = g if create_graph else g.detach()
            t._grad = new if t._grad is None else t._grad + new


_Alias = function_class("AliasBackward0")


def differentiable(t: Tensor) -> Tensor:
    """A tensor to differentiate with respect to, sharing ``t``'s value or node: a fresh leaf,
    or, if ``t`` already requires grad (an outer transform differentiates through this one),
    an alias whose backward passes the cotangent on to ``t``."""
    out = Tensor(t._value, t._node)
    out._requires_grad = True
    if t.requires_grad:
        out.grad_fn = _Alias(lambda b, g, o, ins: (g,), {}, (t,), (t._value, t._node), False,
                             ((grad_edge(t), 0),), ((t.shape, t.dtype),), None)
    return out
