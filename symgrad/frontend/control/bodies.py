"""Tracing the body of a loop or a branch into a closed graph.

Layer: front end, above ``apply``. Input: a Python function (a loop body, a branch, a loop
condition), the types of the values it receives, and the active trace. Output: a ``Body``:
the graph's input tensors, its outputs and their structure, and the tensors from outside the
body that it read (its captures), which the control-flow application takes as operands.

How captures are found (JAX lifts closed-over tracers the same way): while a body is traced,
its ``BodyScope`` is the active recording's ``body``; every op ``apply`` records there checks
its operands, and a traced tensor whose node the body did not make (a value of the enclosing
function, read through a Python closure), or an eager tensor that requires grad (a parameter),
is replaced by a new input of the body, once per tensor. The body's graph is then closed by
construction: it reads its inputs and constants only. Gradients reach the captured tensors
through the application's backward, which gives each operand its cotangent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...ir import Graph
from ...ir.closure import body_input, new_scope
from ...pytree import TreeDef, flatten
from ..core import sources
from ..core.apply import as_tensor
from ..core.backward_graph import edge, function_class
from ..core.tensor import Tensor


_Captured = function_class("AliasBackward0")


class BodyScope:
    """The body being traced: the nodes it made, and the outside tensors it captured."""

    __slots__ = ("scope", "rec", "inside", "captured", "first_capture", "parent")

    def __init__(self, first_capture: int) -> None:
        self.scope = new_scope()
        self.rec = None                 # its Recording (sources.Recording.child)
        self.parent = None              # the enclosing trace's (or body's) Recording
        self.inside: set = set()        # the nodes of this body (its inputs, what its ops made)
        self.captured: dict = {}        # id(outside tensor) -> (that tensor, its input tensor)
        self.first_capture = first_capture   # the index of the first capture input

    def input(self, index: int, name: str, like: Tensor) -> Tensor:
        """A new input of the body, of ``like``'s type (a Python number stays one)."""
        node = body_input(index, name, like.dtype, tuple(like.shape), self.scope)
        t = Tensor(None, node)
        t._trace, t._weak = self.rec, like._weak
        self.inside.add(node)
        return t

    def adopt(self, node) -> Tensor:
        """An existing input node (another body's) as an input of this body."""
        t = Tensor(None, node)
        t._trace = self.rec
        self.inside.add(node)
        return t

    def owns(self, t: Tensor) -> bool:
        """Whether ``t`` belongs to this body (or is a constant any body may read). An eager
        tensor that requires grad is the body's only if it is a leaf the body made: one
        computed while the body is traced (a backward rule's product of outside values)
        derives from outside tensors, through which gradients must flow."""
        if t._value is None:
            return t._node in self.inside or t._node.op == "const"
        return not t._requires_grad or (t._trace is self.rec and t.grad_fn is None)

    def lift(self, inputs: list) -> list:
        """``inputs`` with every tensor from outside the body replaced by the body input it
        is read through (made on first use)."""
        out = None
        for k, t in enumerate(inputs):
            if self.owns(t):
                continue
            if out is None:
                out = list(inputs)
            out[k] = self.capture(t)
        return inputs if out is None else out

    def capture(self, t: Tensor) -> Tensor:
        """The body input ``t`` is read through. If ``t`` requires grad, so does the input,
        and its backward passes the cotangent on to ``t``: a backward pass run while the
        body is traced (a composite's rule, a VJP inside a vmapped function) reaches the
        tensors outside."""
        found = self.captured.get(id(t))
        if found is None:
            n = len(self.captured)
            inner = self.input(self.first_capture + n, f"k{n}", t)
            if t._requires_grad:
                inner._requires_grad = True
                inner.grad_fn = _Captured(lambda b, g, o, ins: (g,), {}, (t,),
                                          (t._value, t._node), False, (edge(t),),
                                          ((t.shape, t.dtype),), None)
            found = self.captured[id(t)] = (t, inner)
        return found[1]

    def made(self, node) -> None:
        self.inside.add(node)


class Like:
    """The type of a body input that is not a tensor of that type yet (one step of a
    sequence, a cotangent): what ``trace_body`` reads of its ``like`` items."""

    def __init__(self, shape: tuple, dtype, weak: bool = False) -> None:
        self.shape, self.dtype, self._weak = tuple(shape), dtype, weak

    @classmethod
    def of(cls, t) -> Like:
        """The type of ``t`` (a tensor or a node), as a tensor's (never a Python number)."""
        return cls(t.shape, t.dtype)


@dataclass
class Body:
    """A traced body: its inputs (the values it was called with), its outputs (flattened,
    with their structure), and its captures (outside tensors, and the inputs they became)."""

    inputs: list              # the input nodes
    outputs: list
    tree: TreeDef
    captures: list            # the outside tensors, in capture order
    capture_inputs: list      # the input nodes they are read through
    locs: dict
    scope: int                # the scope number of its inputs (``ir.closure``)

    def unused_inputs(self, like: list, start: int) -> list:
        """Inputs of this body that it does not read, of the types of the nodes ``like``, at
        positions from ``start``: what lines its operands up with another body's."""
        return [body_input(start + k, f"u{k}", n.dtype, n.shape, self.scope)
                for k, n in enumerate(like)]

    def graph(self, before: list = (), after: list = ()) -> Graph:
        """The closed graph: inputs ``(*inputs, *before, *captures, *after)`` (``before`` and
        ``after`` are unused inputs that line this body up with another's captures)."""
        ins = list(self.inputs) + list(before) + list(self.capture_inputs) + list(after)
        outs = [t.node for t in self.outputs]
        graph = Graph(tuple(ins), tuple(outs), {})
        locs = graph.locs
        for n in graph.nodes():
            loc = self.locs.get(n)
            if loc is not None:
                locs[n] = loc
        _check_closed(graph)
        return graph


def trace_body(fn, like: list, names: list, call, what: str, given: list | None = None
               ) -> Body:
    """Trace ``call(fn, inputs)`` on new body inputs of the types of the tensors ``like``
    (named ``names``); its result is flattened into the body's outputs. ``what`` names the
    body in errors ("scan body", "while_loop cond_fun"). ``given``: for some inputs, an
    existing input node to use (None for the others): a body traced on another body's own
    inputs shares its nodes (interning), which is how a VJP body finds the forward values
    its forward body computes."""
    parent = sources.current()
    scope = BodyScope(len(like))
    rec = scope.rec = parent.child(scope)
    scope.parent = parent
    given = given or [None] * len(like)
    with sources.recording(rec):
        inputs = [scope.input(k, name, t) if node is None else scope.adopt(node)
                  for k, (t, name, node) in enumerate(zip(like, names, given))]
        # (the nodes now: the body may update an input in place, which rebinds its tensor)
        input_nodes = [t.node for t in inputs]
        result = call(fn, inputs)
        leaves, tree = flatten(result)
        outputs = [_output(scope, leaf, k, what) for k, leaf in enumerate(leaves)]
    captured = list(scope.captured.values())
    return Body(input_nodes, outputs, tree, [c for c, _ in captured],
                [p.node for _, p in captured], rec.locs, scope.scope)


def _output(scope: BodyScope, leaf, k: int, what: str) -> Tensor:
    if isinstance(leaf, Tensor):
        return leaf if scope.owns(leaf) else scope.capture(leaf)
    if isinstance(leaf, (bool, int, float)):
        return as_tensor(leaf)
    raise TypeError(f"{what} returned a {type(leaf).__name__} at output {k}; a loop body or "
                    f"branch may return tensors, numbers and tuples/lists/dicts of them")


def _check_closed(graph: Graph) -> None:
    inputs = set(graph.inputs)
    for n in graph.nodes():
        if n.op == "input" and n not in inputs:
            raise AssertionError(f"symgrad: a traced body reads {n.attr('name')!r} from outside "
                                 f"without capturing it (please report this)")
