"""Tensor hooks: ``register_hook`` and ``register_post_accumulate_grad_hook``, torch's way.

Layer: front end, above ``function``. Input: a tensor that requires grad and a callable.
Output: a ``RemovableHandle``; the hook is stored on the function the tensor's cotangent flows
into (its ``grad_fn``, with the output number, or a leaf's ``AccumulateGrad``), where the
engine (``autograd.py``) runs it: ``hook(grad)`` before the cotangent is delivered, captured
by ``autograd.grad`` or propagated, a returned tensor replacing it; post-accumulate hooks
``hook(leaf)`` after ``leaf.grad`` has been updated.
"""

from __future__ import annotations

from collections.abc import Callable

from .faithful import body_barrier
from .backward_graph import edge, grad_edge
from .tensor import Tensor


class RemovableHandle:
    """What registering a hook returns: ``remove()`` unregisters it (``torch.utils.hooks``)."""

    _next_id = 0

    def __init__(self, hooks: dict):
        self.hooks_dict_ref = hooks
        self.id = RemovableHandle._next_id
        RemovableHandle._next_id += 1

    def remove(self) -> None:
        """Unregister the hook (again: nothing)."""
        self.hooks_dict_ref.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def _leaf_accumulator(t: Tensor):
    """The leaf's AccumulateGrad, now held strongly by the leaf (its hooks live there)."""
    acc = grad_edge(t)
    t._accumulator = acc
    return acc


def register_hook(t: Tensor, hook: Callable) -> RemovableHandle:
    """``t.register_hook(hook)``: ``hook(grad)`` runs each time ``t``'s gradient is computed;
    if it returns a tensor, that is used instead."""
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    t._node = body_barrier(t, "no_derivative") or t._node   # (in a loop body being traced)
    if t.grad_fn is None:
        fn, nr = _leaf_accumulator(t), 0
    else:
        fn, nr = edge(t)
    if fn._hooks is None:
        fn._hooks = {}
    handle = RemovableHandle(fn._hooks)
    fn._hooks[handle.id] = (nr, hook)
    return handle


def register_post_accumulate_grad_hook(t: Tensor, hook: Callable) -> RemovableHandle:
    """``hook(t)`` after a backward pass has accumulated into the leaf ``t``'s ``.grad``."""
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if t.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                           "tensors")
    acc = _leaf_accumulator(t)
    if acc._post_hooks is None:
        acc._post_hooks = {}
    handle = RemovableHandle(acc._post_hooks)
    acc._post_hooks[handle.id] = hook
    return handle


METHODS = {"register_hook": register_hook,
           "register_post_accumulate_grad_hook": register_post_accumulate_grad_hook}
