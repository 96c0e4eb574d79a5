"""``torch.autograd.grad`` and ``torch.autograd.backward`` over symgrad's tape engine.

Layer: front end (torch.autograd mirror). Input: output tensors, the tensors to differentiate
with respect to, optional cotangents (``grad_outputs``) and torch's flags. Output: a tuple of
gradients (``grad``), or gradients accumulated into ``.grad`` (``backward``). The engine itself
is ``frontend/core/engine.py``; this module adds torch's argument handling and messages.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Sequence

from ..frontend.core.apply import full
from ..frontend.core.engine import backward_many, root_cotangents, run_backward
from ..frontend.core.tensor import Tensor


def _as_list(x: Any) -> list:
    return [x] if isinstance(x, Tensor) else list(x)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple:
    """The gradients of ``outputs`` (weighted by ``grad_outputs``) with respect to
    ``inputs``, returned rather than accumulated; with ``create_graph`` they are
    differentiable again. Paths from one input through another are followed, as in torch."""
    if is_grads_batched:
        raise NotImplementedError("autograd.grad(is_grads_batched=True) needs vmap, which "
                                  "symgrad does not have yet; loop over the grad_outputs")
    outputs, inputs = _as_list(outputs), _as_list(inputs)
    if grad_outputs is not None:
        grad_outputs = _as_list(grad_outputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and not allow_unused:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"autograd.grad: inputs must be tensors, got {type(t).__name__}")
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = root_cotangents(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    grads = run_backward(roots, retain_graph=retain_graph, create_graph=create_graph,
                         inputs=inputs, through_inputs=True)
    return tuple(_unused(g, t, allow_unused, materialize_grads) for g, t in zip(grads, inputs))


def _unused(g, t: Tensor, allow_unused: bool, materialize: bool):
    if g is not None:
        return g
    if materialize:
        return full(t, 0.0)
    if not allow_unused:
        raise RuntimeError("One of the differentiated Tensors appears to not have been used "
                           "in the graph. Set allow_unused=True if this is the desired "
                           "behavior.")
    return None


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, grad_variables=None, inputs=None) -> None:
    """Accumulate the gradients of ``tensors`` (weighted by ``grad_tensors``) into the leaves'
    ``.grad`` (into ``inputs``' only, when given)."""
    if grad_tensors is None:
        grad_tensors = grad_variables
    tensors = _as_list(tensors)
    if grad_tensors is not None:
        grad_tensors = _as_list(grad_tensors)
    backward_many(tensors, grad_tensors, retain_graph, create_graph, inputs)


__all__: Sequence[str] = ["grad", "backward"]
