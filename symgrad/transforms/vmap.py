"""``vmap`` on tensors: a function of one example, applied to a batch at once.

Layer: transforms. Input: a Python function, the axes its arguments are mapped over
(``in_axes``, a pytree prefix of the arguments, JAX's convention: an int, None for an
argument shared by every example, or a tuple with one entry per argument), where the batch
axis goes in the results (``out_axes``), and the arguments (eager or traced tensors, arrays,
numbers). Output: the results for the whole batch.

How: the function is traced once on one example's types (``frontend.bodies.trace_body``: the
tensors it reads through closures become inputs, unbatched), and the traced graph is replayed
on the batch (``batching.replay_batched``), each op through its batching rule. The result is
ordinary graph (or eager values), so it compiles to one C function and differentiates like
any other: ``grad(vmap(f))``, ``vmap(grad(f))`` and ``vmap(vmap(f))`` all compose. Python
control flow on a value that differs per example (``if``, ``.item()``) raises torch's
RuntimeError (``VmapControlFlowError``, also a ``TracerValueError``), naming the line and
``torch.where``.
"""

from __future__ import annotations

import contextlib
from typing import Any
from collections.abc import Callable

from ..errors import TracerValueError
from ..frontend.core import sources
from ..frontend.core.apply import as_tensor
from ..frontend.core.builder import BUILDER
from ..ops.batching import front
from ..frontend.control.bodies import Like, trace_body
from ..frontend.control.branching import UNKNOWN, asked_outside, predicate
from ..frontend.core.tensor import Tensor, weakly_typed
from ..pytree import flatten, unflatten
from .batching import moved_from_front, moved_to_front, replay_batched


def vmap_call(fn: Callable, in_axes: Any, out_axes: Any, axis_size: int | None, args: tuple,
              kwargs: dict, name: str) -> Any:
    """``fn`` mapped over ``args`` (see the module docstring); ``kwargs`` are not mapped."""
    leaves, tree = flatten(tuple(args))
    axes = prefix_leaves(in_axes, tuple(args), "in_axes", name)
    tensors = [_tensor(v) for v in leaves]
    size = _batch_size(tensors, axes, axis_size, name)
    moved = [t if a is None else moved_to_front(t, _axis(t, a, k, name))
             for k, (t, a) in enumerate(zip(tensors, axes))]
    likes = [Like(t.shape[1:] if a is not None else t.shape, t.dtype, t.weak)
             for t, a in zip(moved, axes)]

    def call(f, inputs):
        rec = sources.current()          # (the body's own recording)
        rec.guards = PerExample(rec, {i.node: t for i, t, a in zip(inputs, moved, axes)
                                      if a is None})
        call_args = unflatten(tree, inputs)
        return f(*call_args, **kwargs)
    with _recording():
        body = trace_body(fn, likes, [f"x{k}" for k in range(len(likes))], call,
                          f"the function vmap maps ({name})")
        outs = replay_batched(body.graph(), moved + body.captures,
                              [a is not None for a in axes] + [False] * len(body.captures),
                              size)
    placed = unflatten(body.tree, list(range(len(outs))))
    out_spec = prefix_leaves(out_axes, placed, "out_axes", name)
    return unflatten(body.tree, [_placed(v, b, a, size, name)
                                 for (v, b), a in zip(outs, out_spec)])


class VmapControlFlowError(TracerValueError, RuntimeError):
    """A value that differs per example used as a Python value inside a vmapped function
    (torch raises RuntimeError; symgrad's tracer errors are TracerValueErrors: it is both)."""


class PerExample:
    """What ``bool(t)``, ``t.item()``, ``float(t)`` find while vmap traces its function (the
    recording ``rec``'s ``guards``): a value the same for every example (computed from what
    the function reads besides its mapped arguments, e.g. the point a ``jacfwd`` is taken
    at) is decided by the trace around it; one that differs per example has no single Python
    value, and torch's vmap refuses it with these words."""

    def __init__(self, rec, shared: dict) -> None:
        self.rec, self.shared = rec, shared     # (unmapped input node -> its tensor)

    def decide(self, t: Tensor):
        known = asked_outside(self.rec, predicate(t), "decide", self.shared)
        if known is UNKNOWN:
            raise self._error("attempting to use a Tensor in some data-dependent control "
                              "flow", "compute both sides and pick per example with "
                              "torch.where(cond, a, b) (symgrad.where)")
        return known

    def item(self, t: Tensor):
        return self._asked(t, "item")

    def exact(self, t: Tensor):
        return self._asked(t, "exact")

    def value(self, node):
        return self._asked(Tensor(None, node), "value")

    def _asked(self, t: Tensor, how: str):
        known = asked_outside(self.rec, t, how, self.shared)
        if known is UNKNOWN:
            raise self._error("calling .item() on a Tensor", "keep computing with the tensor "
                              "(a 0-d tensor broadcasts), and pick per example with "
                              "torch.where(cond, a, b)")
        return known

    @staticmethod
    def _error(what: str, instead: str) -> VmapControlFlowError:
        loc = sources.user_loc()
        at = f" at {loc.file}:{loc.line} ({loc.text})" if loc else ""
        return VmapControlFlowError(
            f"vmap: It looks like you're {what}{at}. vmap traces the function once for the "
            f"whole batch, and this value differs from example to example: {instead}.")


def _recording():
    """The active trace's recording, or a fresh one when vmap runs eagerly (a body is traced
    either way, and so are the batched bodies of loops)."""
    if sources.current() is not None:
        return contextlib.nullcontext()
    return sources.recording(sources.Recording())


def _tensor(v: Any) -> Tensor:
    t = getattr(v, "_sg_tensor", v)     # a traced Python number
    if isinstance(t, Tensor):
        return t
    return weakly_typed(as_tensor(v), isinstance(v, (int, float)) and not isinstance(v, bool))


def prefix_leaves(spec: Any, obj: Any, what: str, name: str) -> list:
    """One axis per leaf of ``obj``: ``spec`` is an int or None for every leaf below it, or
    a tuple/list/dict with ``obj``'s structure down to where it says an int or None."""
    if spec is None or isinstance(spec, int) and not isinstance(spec, bool):
        return [spec] * len(flatten(obj)[0])
    if isinstance(spec, dict) and isinstance(obj, dict) and set(spec) == set(obj):
        return [a for k in sorted(obj) for a in prefix_leaves(spec[k], obj[k], what, name)]
    if isinstance(spec, (tuple, list)) and isinstance(obj, (tuple, list)) \
            and len(spec) == len(obj):
        return [a for s, o in zip(spec, obj) for a in prefix_leaves(s, o, what, name)]
    raise ValueError(f"vmap of {name}: {what}={spec!r} does not match the structure it "
                     f"applies to ({_describe(obj)}): give an int, None, or a tuple/list/dict "
                     f"of those with one entry per item")


def _describe(obj: Any) -> str:
    return flatten(obj)[1].describe()


def _axis(t: Tensor, axis: int, k: int, name: str) -> int:
    if not -t.ndim <= axis < t.ndim:
        raise ValueError(f"vmap of {name}: in_axes maps argument leaf {k} over axis {axis}, "
                         f"but it has shape {tuple(t.shape)} ({t.ndim} dims)")
    return axis % t.ndim


def _batch_size(tensors: list, axes: list, axis_size: int | None, name: str) -> int:
    sizes = {t.shape[a] for t, a in zip(tensors, axes) if a is not None and -t.ndim <= a < t.ndim}
    if axis_size is not None:
        sizes.add(int(axis_size))
    if len(sizes) > 1:
        shown = ", ".join(f"leaf {k}: shape {tuple(t.shape)} axis {a}"
                          for k, (t, a) in enumerate(zip(tensors, axes)) if a is not None)
        raise ValueError(f"vmap of {name}: the mapped axes have different sizes "
                         f"{sorted(sizes)} ({shown})")
    if not sizes:
        if any(a is not None for a in axes):
            return 0   # an axis out of range: _axis names it
        raise ValueError(f"vmap of {name}: no argument is mapped (every in_axes is None): "
                         f"pass axis_size to say how many results to make")
    return sizes.pop()


def _placed(value: Tensor, batched: bool, axis: int | None, size: int, name: str) -> Tensor:
    if axis is None:
        if batched:
            raise ValueError(f"vmap of {name}: out_axes=None for an output that depends on "
                             f"the mapped arguments (of shape {tuple(value.shape[1:])} per "
                             f"example); map it over an axis")
        return value
    value = front(BUILDER, value, batched, size)
    if not -value.ndim <= axis < value.ndim:
        raise ValueError(f"vmap of {name}: out_axes={axis} is out of range for an output of "
                         f"{value.ndim - 1} dims per example")
    return moved_from_front(value, axis)
