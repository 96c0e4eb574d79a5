"""Reverse mode: the backward graph of recorded ops, and the engine that walks it.

Input: root tensors and their cotangents. Output: cotangent tensors for the leaves (written to
``.grad``) or for the requested inputs (returned). Cotangents are built by the ops' VJP rules,
which apply registered ops to tensors: eagerly they compute with NumPy, at trace time they add
nodes to the graph. Either way the adjoint is an ordinary graph, differentiable again when
``create_graph`` is on. This module is the one place where a cotangent is summed back over the
dimensions its input was broadcast along.

The backward graph mirrors torch's: each op application that needs a gradient gets a
``BackwardFunction`` whose class is named like torch's (``MulBackward0``) and whose
``next_functions`` point at the functions of its inputs (``AccumulateGrad`` for leaves).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from . import state
from .ops import bind

_RELEASED_MSG = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")


class BackwardFunction:
    """One recorded op application: how to turn the output's cotangent into the inputs'."""

    __slots__ = ("_rule", "_attrs", "_saved", "_out", "next_functions", "_input_meta", "loc",
                 "_released", "_retained", "_saves", "_versions", "__weakref__")

    def __init__(self, rule: Callable, attrs: dict, saved: Sequence[Any], out: tuple,
                 saves: bool, next_functions: tuple, input_meta: tuple, loc=None):
        self._rule = rule                  # (g, out, inputs, **attrs) -> tuple of cotangents
        self._attrs = attrs
        self._saved = tuple(saved)         # the input tensors
        self._out = out                    # the output's (value, node): no reference cycle
        self._saves = saves
        self.next_functions = next_functions
        self._input_meta = input_meta      # (shape, dtype) of each input
        self.loc = loc                     # source location (at trace time)
        self._released = False
        self._retained = None              # tensors whose .grad is this function's cotangent
        self._versions = ()                # (tensor, version counter, version when saved)

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"

    def _repr_pretty_(self, p, cycle) -> None:
        # torch's grad_fn classes are C types with the default repr, which IPython/Jupyter
        # display as "<AddBackward0 at 0x...>" (no "object"); notebooks show that form.
        p.text(f"<{type(self).__name__} at {id(self):#x}>")

    def apply(self, g):
        if self._released and self._saves:
            raise RuntimeError(_RELEASED_MSG)
        for t, counter, seen in self._versions:
            if counter[0] != seen:
                raise RuntimeError(
                    f"one of the variables needed for gradient computation has been modified "
                    f"by an inplace operation: [{t.dtype.name} {list(t.shape)}] is at version "
                    f"{counter[0]}; expected version {seen} instead (needed by "
                    f"{type(self).__name__}). Hint: the in-place operation came after the "
                    f"tensor was used; use an out-of-place operation or .clone().")
        return self._rule(g, self.output(), self._saved, **self._attrs)

    def output(self):
        """The op's output as a tensor attached to this function (for rules that reuse it)."""
        from .tensor import Tensor
        t = Tensor(*self._out)
        t._requires_grad = True
        t.grad_fn = self
        return t

    def release(self) -> None:
        self._released = True
        if self._saves:
            self._saved = ()
            self._versions = ()


class AccumulateGrad:
    """The sink of a leaf tensor that requires grad: adds cotangents into ``leaf.grad``."""

    __slots__ = ("variable", "__weakref__")
    next_functions = ()
    loc = None
    _retained = None

    def __init__(self, variable):
        self.variable = variable

    def name(self) -> str:
        return "AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(f"<AccumulateGrad at {id(self):#x}>")   # as IPython shows torch's (see above)


_CLASSES: dict[str, type] = {}


def function_class(name: str) -> type:
    """A BackwardFunction subclass named like torch's grad_fn class (created once per name)."""
    cls = _CLASSES.get(name)
    if cls is None:
        cls = _CLASSES[name] = type(name, (BackwardFunction,), {"__slots__": ()})
    return cls


def sum_to_shape(ct, shape: tuple):
    """Sum a cotangent back over the dimensions ``shape`` was broadcast along."""
    if ct.shape == shape:
        return ct
    lead = ct.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if s == 1 and ct.shape[lead + i] != 1)
    if axes:
        ct = bind("sum", ct, axes=axes)
    if ct.shape != shape:
        ct = bind("reshape", ct, shape_to=shape)
    return ct


def run_backward(roots: Sequence[tuple[Any, Any]], *, retain_graph: bool, create_graph: bool,
                 inputs: Sequence[Any] | None = None) -> list | None:
    """Propagate cotangents from ``roots`` [(tensor, cotangent)] to the leaves.

    Without ``inputs``, cotangents accumulate into the ``.grad`` of leaves (and of tensors that
    called ``retain_grad``). With ``inputs``, nothing is accumulated: the cotangent reaching
    each input is returned (None where none does), like ``torch.autograd.grad``; paths that
    run through one input to another are not followed (composites rely on that).
    """
    # The function each root / input is attached to.
    root_fns = [(t._grad_edge(), g) for t, g in roots]
    targets: dict[Any, int] = {}
    if inputs is not None:
        for i, t in enumerate(inputs):
            edge = t._grad_edge()
            if edge is not None:
                targets.setdefault(edge, i)

    # Discover the graph (iteratively: graphs can be deep), counting incoming edges.
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

    # A topological order (Kahn's algorithm), then prune to the functions that lie on a path
    # to something that consumes a cotangent.
    remaining = dict(deps)
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
                remaining[nxt] -= 1
                if remaining[nxt] == 0:
                    frontier.append(nxt)
    needed: set = set()
    for fn in reversed(topo):
        if inputs is not None:
            sink = fn in targets
        else:
            sink = isinstance(fn, AccumulateGrad) or fn._retained is not None
        if sink or (fn not in targets and any(n in needed for n, _ in fn.next_functions)):
            needed.add(fn)
    if inputs is None and any(t._value is None or g._value is None for t, g in roots):
        _check_sinks_traced(needed)

    results: list = [None] * (len(inputs) if inputs is not None else 0)
    pending: dict[Any, Any] = {}
    for fn, g in root_fns:
        if fn is not None:
            pending[fn] = g if fn not in pending else pending[fn] + g

    with state.set_grad_enabled(create_graph):
        trace = state.current_trace()
        for fn in topo:
            g = pending.pop(fn, None)
            if fn in targets:
                # An input's cotangent: returned, and paths beyond it are not followed.
                if g is not None:
                    results[targets[fn]] = g if create_graph else g.detach()
                continue
            if g is not None and fn in needed:
                _deliver(fn, g, create_graph)
                if not isinstance(fn, AccumulateGrad) and any(
                        n in needed for n, _ in fn.next_functions if n is not None):
                    prev = trace.loc_override if trace else None
                    if trace is not None and fn.loc is not None:
                        trace.loc_override = _backward_loc(fn)
                    try:
                        _propagate(fn, g, needed, pending)
                    finally:
                        if trace is not None:
                            trace.loc_override = prev
                    if not retain_graph:
                        fn.release()
    return results if inputs is not None else None


def _propagate(fn, g, needed: set, pending: dict) -> None:
    """Apply ``fn``'s rule and add each input's cotangent (summed back over broadcast
    dimensions and cast to the input's dtype) to what that input has received so far."""
    cts = fn.apply(g)
    for (nxt, _), ct, (shape, dtype) in zip(fn.next_functions, cts, fn._input_meta):
        if nxt is None or ct is None or nxt not in needed:
            continue
        ct = sum_to_shape(ct, shape)
        if ct.dtype is not dtype:
            ct = bind("cast", ct, dtype=dtype)
        pending[nxt] = ct if nxt not in pending else pending[nxt] + ct


def _backward_loc(fn):
    loc = fn.loc
    return state.Loc(loc.file, loc.line, loc.text, f"(backward of {fn.name()})")


def _check_sinks_traced(needed: set) -> None:
    """A backward at trace time must not write into a tensor that lives outside the trace.

    Its cotangents are graph nodes, valid only inside the function being compiled; stored in
    the ``.grad`` of a tensor from outside it (a global parameter the function closes over)
    they would outlive the trace as a placeholder, and the compiled code could never update
    that tensor anyway. An eager tensor created during this trace is the function's own
    (``w = ones(3, requires_grad=True)`` in its body). Checked before anything is delivered,
    so no .grad is half written when we raise.
    """
    trace = state.current_trace()

    def foreign(t) -> bool:
        return t._value is not None and t._trace is not trace

    for fn in needed:
        if isinstance(fn, AccumulateGrad):
            outside = [fn.variable] if foreign(fn.variable) else []
        else:
            outside = [t for t in (fn._retained or ()) if foreign(t)]
        if outside:
            from .tensor import TracerValueError  # tensor.py imports this module
            loc = state.user_loc()
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
        for t in fn._retained:
            new = g if create_graph else g.detach()
            t._grad = new if t._grad is None else t._grad + new
