"""Composites shown as torch's nodes: a view, an op of several outputs, a pick by indices.

Layer: front end (functions), above ``core.apply`` and ``core.engine``. Input: the grad_fn
class name torch shows, a body computing the op from primitives, its tensor inputs. Output:
the body's results carrying one backward function of that name, whose edges are the inputs
(``next_functions`` as torch's). ``named_view``: the result stays a view of its input (split
pieces, a diagonal, ``x[...]``), so in-place updates still reach the base. ``named_outputs``:
one node for all the outputs (slogdet, eigh, qr, svd, split, unbind: ``output_nr`` tells
them apart, as in torch). ``picked``: values taken from ``x`` at known indices along a dim
(sort, topk, kthvalue, mode, median): their rule scatters the cotangent back to the indices.

Without a rule, a node's backward re-runs the body with recording on (free at trace time:
nodes are interned) and back-propagates through it: a rule in torch's complex convention.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core import grad_mode, sources
from ..core.apply import WATCH, apply
from ..core.backward_graph import BackwardFunction, edge, function_class
from ..core.engine import run_backward
from ..core.lazy_composite import multi_attached
from ..core import lazy_ops
from ..core.view_links import mark_multi_views
from ..core.tensor import Tensor
from .basic import composite


class _Outputs(BackwardFunction):
    """The node of an op with several outputs: ``apply`` gets one cotangent per output
    (None where none flowed) and gives the inputs' (``custom_function`` has the same
    protocol with the engine: ``_n_outputs``, ``output_nr``, ``alias_output``)."""

    __slots__ = ("_n_outputs", "_output_ids")

    def output_nr(self, t: Tensor) -> int:
        return self._output_ids.get(id(t), 0)

    def alias_output(self, alias: Tensor, t: Tensor) -> None:
        """``alias`` stands for the same output as ``t`` (an in-place update's snapshot)."""
        self._output_ids[id(alias)] = self.output_nr(t)

    def apply(self, b, g):
        self.check_saved()
        gs = list(g) if type(g) is list else [g] + [None] * (self._n_outputs - 1)
        return self._rule(b, gs, None, self._saved)


_MULTI: dict[str, type] = {}


def _outputs_class(name: str) -> type:
    cls = _MULTI.get(name)
    if cls is None:
        cls = _MULTI[name] = type(name, (_Outputs,), {"__slots__": ()})
    return cls


def _rerun(body: Callable, n_outputs: int | None):
    """The rule that differentiates ``body`` again: (b, g, out, ins) -> the inputs'
    cotangents; ``g`` a list of ``n_outputs`` cotangents (None: a single output)."""
    def rule(b, g, out, ins):
        with grad_mode.enable_grad():
            again = body(*ins)
        pairs = [(again, g)] if n_outputs is None else \
            [(a, c) for a, c in zip(again, g) if c is not None and a._requires_grad]
        if not pairs:
            return (None,) * len(ins)
        create = grad_mode.is_grad_enabled()   # then the gradient reads this graph
        return run_backward(pairs, retain_graph=create, create_graph=create,
                            inputs=list(ins), input_hooks=False)
    return rule


def _fresh(out: Tensor, inputs: Sequence[Tensor]) -> Tensor:
    """``out``, or a view of it when the body returned one of its inputs as is (torch's
    result is a new tensor: an alias)."""
    if any(out is t for t in inputs):
        return apply("reshape", out, shape_to=tuple(out.shape))
    return out


def _recording(inputs: Sequence[Tensor]) -> bool:
    return grad_mode.is_grad_enabled() and any(t._requires_grad for t in inputs)


def _node(cls: type, rule, inputs: Sequence[Tensor], saves: bool, out: Tensor):
    loc = sources.record(out._node) if out._node is not None else None
    fn = cls(rule, {}, tuple(inputs), None, saves, tuple(edge(t) for t in inputs),
             tuple((t.shape, t.dtype) for t in inputs), loc)
    if saves:
        fn._versions = tuple((t.dtype, t.shape, t._vc, t._vc[0]) for t in inputs)
    return fn


def named_view(torch_name: str, body: Callable[..., Tensor], x: Tensor) -> Tensor:
    """``body(x)``, a view of ``x`` made of movement primitives, with one backward function
    named ``torch_name`` (DiagonalBackward0, AliasBackward0...) whose rule is the body's:
    the result stays a view of ``x`` (it is not copied, as ``composite``'s is)."""
    if not _recording((x,)):
        with grad_mode.no_grad():
            return _fresh(body(x), (x,))
    # recorded: the views between x and the result keep their history (writing into the
    # result writes through them into x); the result's own node is then replaced
    out = _fresh(body(x), (x,))
    if out.dtype.is_differentiable:
        out._requires_grad = True
        out.grad_fn = _node(function_class(torch_name), _rerun(body, None), (x,), False, out)
    return out


def named_outputs(torch_name: str, body: Callable[..., Sequence[Tensor]],
                  inputs: Sequence[Tensor], rule: Callable | None = None,
                  saves: bool = True, multi_views: bool = False) -> tuple:
    """``body(*inputs)``'s outputs (a sequence of tensors), the differentiable ones sharing
    one backward function named ``torch_name``, each as its output number. ``rule(gs, ins)``
    (gs: a cotangent or None per output) gives the inputs' cotangents; without one, the body
    is differentiated again. ``saves``: the rule reads the inputs' values (changing them in
    place before the backward is then an error, as torch's). ``multi_views``: the outputs
    are views of one op (``split``, ``unbind``: ``view_links.mark_multi_views``)."""
    inputs = tuple(inputs)
    if not _recording(inputs):
        with grad_mode.no_grad():
            outs = tuple(_fresh(o, inputs) for o in body(*inputs))
        return mark_multi_views(outs) if multi_views else outs
    # recorded: what lies between the inputs and the outputs keeps its history (an output
    # that is a view of an input writes through it); the outputs' nodes are then replaced
    outs = [_fresh(o, inputs) for o in body(*inputs)]
    if not outs:
        return ()
    if rule is None:
        node_rule = _rerun(body, len(outs))
    else:
        def node_rule(b, g, out, ins):
            return rule(g, ins)
    if not (WATCH[0] and multi_attached(torch_name, node_rule, inputs, saves, outs,
                                        multi_views)):
        attach_outputs(torch_name, node_rule, inputs, saves, outs, multi_views)
    return tuple(outs)


def attach_outputs(torch_name: str, node_rule, inputs: Sequence[Tensor], saves: bool,
                   outs: Sequence[Tensor], multi_views: bool) -> None:
    """Give ``outs`` their shared node (``named_outputs``; a captured step's replay too)."""
    fn = _node(_outputs_class(torch_name), node_rule, inputs, saves, outs[0])
    fn._n_outputs, fn._output_ids = len(outs), {}
    for k, o in enumerate(outs):
        if o.dtype.is_differentiable:
            o._requires_grad, o.grad_fn = True, fn
            fn._output_ids[id(o)] = k
    if multi_views:
        mark_multi_views(outs)


lazy_ops.ATTACH_OUTPUTS[0] = attach_outputs


def picked(torch_name: str, x: Tensor, index: Tensor, axis: int, shape: tuple,
           flat: bool = False) -> Tensor:
    """The values of ``x`` at ``index`` along ``axis`` (``gather``), reshaped to ``shape``
    (a 0-d ``x`` is read as one element, a ``flat`` one as a vector): sort's, topk's,
    kthvalue's, mode's, median's values. Their rule scatters the cotangent back to the
    indices (torch's ``value_selecting_reduction_backward``), a differentiable primitive."""
    src_shape = (x.numel(),) if flat or not x.ndim else tuple(x.shape)

    def body(v):
        src = v if v.ndim and not flat else apply("reshape", v, shape_to=src_shape)
        return apply("reshape", apply("gather", src, index, axis=axis), shape_to=shape)

    def rule(g, out, ins):   # torch's: zeros scattered with g (ScatterBackward0)
        spread = apply("scatter_add", apply("reshape", g, shape_to=tuple(index.shape)), index,
                       axis=axis, shape_to=src_shape, _torch_name="ScatterBackward0")
        if src_shape == tuple(x.shape):
            return (spread,)
        return (apply("reshape", spread, shape_to=tuple(x.shape), _torch_name="ScatterBackward0"),)
    return composite(torch_name, body, [x], rule, saves=False, uses_out=False)


__all__ = ["named_view", "named_outputs", "picked"]
