"""Custom autograd functions: ``torch.autograd.Function``, its ``ctx`` and ``once_differentiable``.

Layer: front end, above ``function``/``apply``/``grad_mode``. Input: a user's subclass of
``Function`` with static ``forward`` and ``backward`` (and optionally ``setup_context``), and
the arguments of ``MyFunction.apply(...)``. Output: the forward's outputs, carrying one
backward node: an instance of ``<MyFunction>Backward``, which is also the ``ctx`` the forward
and backward saw (as in torch, ``y.grad_fn`` is the ctx).

How it fits the engine: the node is a ``BackwardFunction`` whose ``apply`` calls the user's
``backward`` on the output cotangents (one per output; a node with several outputs gets a list
from the engine) and maps its results to the tensor arguments. ``forward`` runs with grad mode
off; ``backward`` runs in whatever mode the engine runs (on when ``create_graph``), so a
``backward`` written with tensor operations is itself differentiable: double backward works,
eagerly and inside ``@symgrad.compile`` (where the same Python runs on traced tensors and the
cotangents are graph nodes).

Saved outputs are kept as (value, node) and rebuilt on access, so the node does not hold its own
output (no reference cycle through ``ctx.saved_tensors``).
"""

from __future__ import annotations

import functools
from typing import Any

from . import grad_mode
from .apply import WATCH, attach_function, full
from .backward_graph import RELEASED_MSG, BackwardFunction, edge
from .faithful import body_barrier
from .tensor import Tensor


class FunctionCtx:
    """What ``forward``/``setup_context`` use to talk to ``backward``: torch's ctx methods."""

    def save_for_backward(self, *tensors: Any) -> None:
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument "
                                f"{len(self._to_save or ())} is of type {type(t).__name__}")
        self._to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors: Tensor) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)


class CustomBackward(BackwardFunction, FunctionCtx):
    """The backward node of one ``Function.apply`` call, and its ctx. Subclasses are named
    ``<Function>Backward`` as torch names them; they have a ``__dict__`` for what users put
    on ctx (``ctx.constant = 3``)."""

    _function: type = None   # the user's Function subclass (set on each subclass)

    def __init__(self, args: tuple, edges: bool = True):
        tensors = [a for a in args if isinstance(a, Tensor)]
        self._rule, self._attrs, self._out = None, {}, None
        self._saved, self._saves, self._versions = (), False, ()
        # The edges are taken before the outputs are attached: mark_dirty rebinds an input's
        # grad_fn then (the forward runs under no_grad: it rebinds none). A captured step
        # takes them after the forward (``take_edges``): its inputs may be pending before.
        self._edges = None
        if edges:
            self.take_edges(args)
        self._shown = None
        self._input_meta = tuple((t.shape, t.dtype) for t in tensors)
        self.loc, self._released, self._retained, self._hooks = None, False, None, None
        self._complex, self._holomorphic = False, False   # the user's rule is torch's own
        self._made = None   # (never a twin: see twins)
        self.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad
                                      for a in args)
        self._arg_is_tensor = tuple(isinstance(a, Tensor) for a in args)
        self._to_save, self._dirty, self._non_differentiable = None, (), ()
        self.materialize_grads = True
        self._n_outputs, self._output_ids, self._output_meta = 1, {}, ()

    def take_edges(self, args: tuple) -> None:
        self._edges = tuple(edge(a) if a._requires_grad else (None, 0) for a in args
                            if isinstance(a, Tensor))

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<symgrad.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    # ------------------------------------------------------------ outputs
    def output_nr(self, t: Tensor) -> int:
        return self._output_ids.get(id(t), 0)

    def alias_output(self, alias: Tensor, t: Tensor) -> None:
        """``alias`` stands for the same output of this node as ``t`` (an in-place update's
        snapshot of ``t``)."""
        self._output_ids[id(alias)] = self.output_nr(t)

    def _output_tensor(self, k: int) -> Tensor:
        value, node = self._output_meta[k][2]
        t = Tensor(value, node)
        t._requires_grad, t.grad_fn = True, self
        self._output_ids[id(t)] = k
        return t

    # ------------------------------------------------------------ saved tensors
    def _keep_saved(self, outputs: list) -> None:
        """Store what ``save_for_backward`` named, outputs by their number (no cycle)."""
        saved = []
        for t in self._to_save or ():
            k = next((k for k, o in enumerate(outputs) if o is t), None)
            saved.append(t if k is None else k)
            if t is not None:
                self._versions += ((t.dtype, t.shape, t._vc, t._vc[0]),)
        self._saved, self._saves = tuple(saved), bool(saved)
        self._to_save = None

    @property
    def saved_tensors(self) -> tuple:
        self.check_saved()
        return tuple(self._output_tensor(s) if type(s) is int else s for s in self._saved)

    def release(self) -> None:
        self._released = True
        if self._saves:
            self._saved, self._versions = (), ()

    # ------------------------------------------------------------ backward
    def apply(self, b, g) -> list:
        """Run the user's ``backward`` on the output cotangents; one cotangent per tensor
        argument of ``forward`` (None: no gradient), in ``next_functions`` order."""
        if self._released and self._saves:
            raise RuntimeError(RELEASED_MSG)
        grads = list(g) if type(g) is list else [g]
        if self.materialize_grads:
            grads = [self._zeros(k) if x is None else x for k, x in enumerate(grads)]
        result = self._function.backward(self, *grads)
        return self._per_tensor_input(result if isinstance(result, tuple) else (result,))

    def _zeros(self, k: int):
        shape, dtype, (value, node) = self._output_meta[k]
        if dtype is None:
            return None     # a non-tensor output has no gradient
        like = Tensor(value, node)
        return full(like, 0.0)

    def _per_tensor_input(self, result: tuple) -> list:
        name, n = type(self).__name__, len(self._arg_is_tensor)
        if len(result) != n and not (len(result) > n and all(r is None for r in result[n:])):
            raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                               f"(expected {n}, got {len(result)})")
        cts = []
        for i, (is_tensor, ct) in enumerate(zip(self._arg_is_tensor, result)):
            if not is_tensor:
                if ct is not None:
                    raise RuntimeError(f"function {name} returned a gradient different than "
                                       f"None at position {i + 1}, but the corresponding "
                                       f"forward input was not a Variable")
                continue
            if ct is not None:
                self._check_gradient(len(cts), ct)
            cts.append(ct)
        return cts

    def _check_gradient(self, j: int, ct: Any) -> None:
        if not isinstance(ct, Tensor):
            raise TypeError(f"function {type(self).__name__} returned a {type(ct).__name__} "
                            f"as the gradient of input {j}; expected a Tensor or None")
        shape = self._input_meta[j][0]
        lead = len(ct.shape) - len(shape)
        fits = lead >= 0 and all(s == c or s == 1 for s, c in zip(shape, ct.shape[lead:]))
        if not fits:
            raise RuntimeError(f"Function {type(self).__name__} returned an invalid gradient "
                               f"at index {j} - got {list(ct.shape)} but expected shape "
                               f"compatible with {list(shape)}")


_NODE_CLASSES: dict[type, type] = {}


def node_class(cls: type) -> type:
    node = _NODE_CLASSES.get(cls)
    if node is None:
        node = type(f"{cls.__name__}Backward", (CustomBackward,), {"_function": cls})
        _NODE_CLASSES[cls] = node
    return node


class Function:
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``, then call
    ``MyFunction.apply(*args)`` (torch.autograd.Function). The new style, ``forward(*args)``
    with ``setup_context(ctx, inputs, output)``, works too."""

    # Whether the graph of ``forward``'s results is differentiated right by its ops' own
    # rules (symgrad's own loops and branches: their nodes' rules are these); a user's rule is
    # not, so inside a loop body being traced its results get a ``no_derivative`` node.
    _graph_rules = False

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd."
                           "Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        if WATCH[0] and CAPTURE[0] is not None:   # (eager capture: ``lazy_custom``)
            return CAPTURE[0](cls, args, kwargs)
        ctx, outputs = run_forward(cls, args, kwargs)
        return wrap_outputs(ctx, outputs, args, grad_mode.is_grad_enabled()
                             and any(ctx.needs_input_grad))


# Set by ``lazy_custom`` (above this module): ``apply`` of a Function while capture is on.
CAPTURE: list = [None]


def run_forward(cls: type, args: tuple, kwargs: dict, edges: bool = True) -> tuple:
    """``(ctx, outputs)``: a new ctx, and the user's forward run on ``args`` with it (its
    edges not taken yet unless ``edges``: ``CustomBackward.take_edges``)."""
    ctx = node_class(cls)(args, edges)
    with grad_mode.no_grad():
        if cls.setup_context is not Function.setup_context:   # (the new style)
            outputs = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, outputs)
        else:
            outputs = cls.forward(ctx, *args, **kwargs)
    if not cls._graph_rules:   # (in a loop body being traced: see body_barrier)
        for o in outputs if isinstance(outputs, tuple) else (outputs,):
            if isinstance(o, Tensor):
                barrier = body_barrier(o, "no_derivative")
                if barrier is not None:
                    o._node = barrier
    return ctx, outputs


def wrap_outputs(ctx: CustomBackward, outputs: Any, args: tuple, record: bool) -> Any:
    """The outputs as the caller sees them: tensors attached to ``ctx`` when recording."""
    single = not isinstance(outputs, tuple)
    outs = [outputs] if single else list(outputs)
    for k, o in enumerate(outs):
        if isinstance(o, Tensor) and any(o is a for a in args) \
                and not any(o is d for d in ctx._dirty):
            outs[k] = Tensor(o._value, o._node)   # an input returned as is: a new alias
    if record:
        _attach(ctx, outs)
    ctx._keep_saved(outs if record else [])
    return outs[0] if single else tuple(outs)


def _attach(ctx: CustomBackward, outs: list) -> None:
    """Make ``ctx`` the grad_fn of each differentiable tensor output."""
    ctx._n_outputs = len(outs)
    ctx._output_meta = tuple(
        (o.shape, o.dtype, (o._value, o._node)) if isinstance(o, Tensor) else ((), None, None)
        for o in outs)
    for k, o in enumerate(outs):
        if not isinstance(o, Tensor):
            continue
        if any(o is d for d in ctx._dirty):
            if o._requires_grad and o.grad_fn is None:
                raise RuntimeError("a leaf Variable that requires grad has been used in an "
                                   "in-place operation.")
        if any(o is n for n in ctx._non_differentiable) or not o.dtype.is_differentiable:
            continue
        o._requires_grad, o.grad_fn = True, ctx
        ctx._output_ids[id(o)] = k


def once_differentiable(backward):
    """Decorate a ``backward`` that is not itself differentiable: it runs with grad mode off,
    and differentiating its result (double backward) raises, as in torch."""

    @functools.wraps(backward)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            outputs = backward(ctx, *args)
        if not grad_mode.is_grad_enabled():
            return outputs
        sources = [a for a in args if isinstance(a, Tensor) and a._requires_grad]
        if not sources:
            return outputs
        single = not isinstance(outputs, tuple)
        wrapped = [_delayed_error(o, sources) if isinstance(o, Tensor) else o
                   for o in ((outputs,) if single else outputs)]
        return wrapped[0] if single else tuple(wrapped)
    return wrapper


def _delayed_error(out: Tensor, sources: list) -> Tensor:
    def rule(g, o, ins):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")
    return attach_function(out, "DelayedError", rule, sources, saves=False, uses_out=False)


__all__ = ["Function", "FunctionCtx", "once_differentiable"]
