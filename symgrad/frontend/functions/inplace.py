"""In-place tensor operations (``add_``, ``mul_``, ``zero_``, ``x += 1``...) with torch's rules.

Layer: front end. Input: a tensor and an operand. Output: the same tensor object, updated. The
new value is the out-of-place op's result: eagerly it is written into the tensor's array, at
trace time the tensor is rebound to the result's node. Views follow torch: updating a view (a
slice, reshape, permute of another tensor, or a ``detach()``/``.data`` alias) updates the tensor
it views where it shows it (``where(mask, unslice(new), old)``, differentiable), and updating a
tensor updates its live views, eagerly and at trace time alike. torch's rules hold: a leaf that
requires grad (or a view of one) may only be updated under ``no_grad``; the result must fit the
tensor's shape and dtype; a tensor saved for a backward and changed in place afterwards, or
through a view of it, makes that backward raise (version counters, shared with views, checked by
the backward function, ``function.py``); an expanded view cannot be written. One difference: a
reshape is always a view here, while torch's reshape of a non-contiguous tensor (e.g. of a
transpose) copies it.
"""

from __future__ import annotations

import re

import numpy as np

from ... import dtypes
from ...errors import TracerValueError
from ...ops.movement import inverse_permutation
from . import basic as F, eager_writes
from ..core import grad_mode, lazy, lazy_updates, sources
from ..core.apply import apply, as_tensor, attach_function, full
from ..core.shown import cast_inside, shown_as
from ..core.backward_graph import grad_edge
from ..core.conversions import check_fits
from ..core.tensor import Tensor
from ..core.view_links import has_views
from ...dims import same_shape
from .windows import into_windows, windows
from ...size import Size


def _snapshot(t: Tensor) -> Tensor:
    """``t``'s current value and place in the backward graph, as a separate tensor: what the
    op reads, so that rules saving their inputs keep the value from before the update."""
    old = Tensor(None if t._value is None else t._value.copy(), t._node)
    old._requires_grad, old.grad_fn = t._requires_grad, t.grad_fn
    if t.grad_fn is not None and t.grad_fn._n_outputs > 1:
        t.grad_fn.alias_output(old, t)   # the same output of a custom Function's node
    if t.grad_fn is None and t._requires_grad:
        old._accumulator = grad_edge(t)
    return old


def _operand(t: Tensor) -> Tensor:
    """``t`` as the operand of an update of ``t`` itself: a snapshot when grad mode is on,
    even if ``t`` does not require grad (in ``c.mul_(w)`` the rule for ``w`` saves ``c``)."""
    return _snapshot(t) if grad_mode.is_grad_enabled() else t


@lazy_updates.updates_target
def update(t: Tensor, compute, name: str) -> Tensor:
    """Replace ``t``'s value with ``compute(t)`` in place, the torch way: if ``t`` is a view
    (a slice, reshape, permute or detached alias of another tensor), the tensor it views is
    updated where ``t`` shows it, and so are the other views of that tensor."""
    recording = _check_target(t, name)
    operand = _operand(t)
    result = compute(operand)
    if not same_shape(result.shape, t.shape):
        raise RuntimeError(f"output with shape {list(t.shape)} doesn't match the broadcast "
                           f"shape {list(result.shape)} ({name})")
    result = _fitted(t, result, operand, name, recording)
    _write(t, result)
    return t


def _check_target(t: Tensor, name: str) -> bool:
    """torch's checks of a tensor updated in place (a leaf that requires grad, or a view of
    one, only under no_grad); whether grad mode is on."""
    recording = grad_mode.is_grad_enabled()
    root = t
    while root._view is not None and root._view[1] != "alias":
        root = root._view[0]
    _refuse_outside(root, name)
    if recording and root._requires_grad:
        _refuse_multi_view(t)
    if recording and root._requires_grad and root.grad_fn is None and name not in NO_FORMULA:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                            "in-place operation." if root is not t else
                            "a leaf Variable that requires grad is being used in an in-place "
                            "operation.")
    return recording


@lazy_updates.updates
def update_resizing(t: Tensor, compute, name: str) -> Tensor:
    """An in-place op whose result has another shape than ``t``: torch resizes its output
    (``addbmm_`` of a self that broadcasts to the product's shape), so ``t`` takes the
    result's shape and values, in new storage (it no longer shows a tensor it viewed)."""
    recording = _check_target(t, name)
    operand = _operand(t)
    result = _fitted(t, compute(operand), operand, name, recording)
    t._view, t._strides, t.shape = None, None, tuple.__new__(Size, result.shape)
    if t._value is not None and result._value is not None:
        t._value = np.array(result._value)
    else:
        t._value, t._node = result._value, result.node
    if result._requires_grad:
        t._requires_grad, t.grad_fn = True, result.grad_fn
    t._vc[0] += 1
    return t


def _fitted(t: Tensor, result: Tensor, operand: Tensor, name: str, recording: bool) -> Tensor:
    """The result of an update of ``t`` in ``t``'s dtype, with torch's node where it carries
    no gradient."""
    if result.dtype is not t.dtype:
        if not dtypes.can_cast(result.dtype, t.dtype):
            raise dtypes.cast_error(result.dtype, t.dtype)
        result = cast_inside(result, t.dtype)
    if recording and result._requires_grad:   # (checked before if its base requires grad)
        _refuse_multi_view(t)
    if recording and t._requires_grad and not result._requires_grad:
        result = (_unrecorded(result, operand) if name in NO_FORMULA else
                  _without_gradient(result, operand, name))
    return result


def _refuse_multi_view(t: Tensor) -> None:
    """torch's error for a recorded update of one of the views an op returned together
    (``split``, ``unbind``, ``chunk``; ``view_links.mark_multi_views``) or a view of one: their
    shared backward function could not be rebased onto the update."""
    if t._creation != "multi":
        return
    fn = t.grad_fn
    what = ("A view was created in no_grad mode and is being modified inplace with grad mode "
            "enabled." if fn is None else
            f"Output {t.output_nr} of {re.sub(r'Backward[0-9]*$', '', fn.name())} is a view "
            f"and is being modified inplace.")
    raise RuntimeError(what + " This view is the output of a function that returns multiple "
                       "views. Such functions do not allow the output views to be modified "
                       "inplace. You should replace the inplace operation by an out-of-place one.")


def _without_gradient(result: Tensor, operand: Tensor, name: str) -> Tensor:
    """The result of an update that carries no gradient (``y.eq_(2)``, ``y.sign_()`` on
    integers...) written into a tensor that requires one: as in torch, ``y`` then has the
    op's backward function (``EqBackward0``), which gives its old value a zero gradient."""
    torch_name = "".join(p.capitalize() for p in name.strip("_").split("_")) + "Backward0"
    return attach_function(result, torch_name, lambda g, out, ins: (full(ins[0], 0.0),),
                           [operand], saves=False, uses_out=False)


# In-place ops torch has no derivative formula for: no node is recorded, the tensor keeps its
# place in the backward graph and the gradient passes the update as if nothing had changed.
NO_FORMULA = frozenset(("logical_and_", "logical_or_", "logical_xor_", "logical_not_"))


def _unrecorded(result: Tensor, operand: Tensor) -> Tensor:
    out = Tensor(result._value, result._node)
    out._requires_grad, out.grad_fn = True, operand.grad_fn
    return out


def _refuse_outside(t: Tensor, name: str) -> None:
    """Inside a loop body or a branch being traced, a tensor from outside it may not change
    in place: the body runs once per step in the compiled code, the update would happen once
    (at trace time), and the tensor would hold a value of the body's graph. Likewise, inside
    a compiled function, a tensor created outside it (a global, a module's buffer): the
    compiled code reads it at each call as an input and cannot write it back, so the update
    would happen once, at trace time, and the reads before it would see the new value."""
    rec = sources.current()
    if rec is None:
        return
    body = rec.body
    if body is None:
        _refuse_foreign(t, name, rec)
        return
    if (t._node not in body.inside) if t._value is None else (t._trace is not body.rec):
        raise RuntimeError(f"{name}: a tensor from outside a loop body or branch cannot be "
                           f"updated in place inside it (shape {list(t.shape)}, "
                           f"{t.dtype.name}); carry it through the loop instead (return its "
                           f"new value as part of the carry)")


def _refuse_foreign(t: Tensor, name: str, rec) -> None:
    """``_refuse_outside`` in a compile trace, outside any body: ``t``, or the tensor it is
    a view or a ``detach()`` of (they share the data), made before the trace (an eager
    tensor of another trace, or the stand-in of a captured one)."""
    while t._view is not None:
        t = t._view[0]
    if t._value is not None:
        foreign = t._trace is not rec
    else:
        foreign = rec.captures is not None and rec.captures.stands_in(t)
    if foreign:
        raise TracerValueError(
            f"{name} inside @symgrad.compile would update in place a tensor created outside "
            f"the compiled function (shape {list(t.shape)}, {t.dtype.name}); compiled code "
            f"cannot update tensors it does not own. Pass it as an argument and return its "
            f"new value.")


def _write(t: Tensor, value: Tensor) -> None:
    """Make ``value`` the data of ``t``: written into the tensor ``t`` views (recursively), or
    set on ``t`` and passed on to the tensors that view it."""
    if t._view is None:
        _set(t, value)
        t._vc[0] += 1
        _refresh_views(t)
        return
    base, op, attrs = t._view
    if op == "alias":            # detach(): the data changes, not the base's autograd history
        _write(base, Tensor(value._value, value._node))
    elif op == "expand" and not same_shape(t.shape, base.shape):
        raise RuntimeError("unsupported operation: more than one element of the written-to "
                           "tensor refers to a single memory location. Please clone() the "
                           "tensor before performing the operation.")
    else:
        _write(base, _scatter(base, op, attrs, value))


def _pairs(z: Tensor) -> Tensor:
    parts = [apply("reshape", apply(p, z), shape_to=tuple(z.shape) + (1,)) for p in VALUE_PARTS]
    return apply("cat", *parts, axis=z.ndim)


def _joined(z: Tensor, v: Tensor) -> Tensor:
    lead = (slice(None),) * (v.ndim - 1)
    return apply("complex", v[lead + (0,)], v[lead + (1,)], _torch_name="CopySlices")


VALUE_PARTS = ("real", "imag")
# Views that show their base's values through a function rather than a movement (the parts
# of a complex tensor): op -> (the view of a base, the base with a new value of the view).
VALUE_VIEWS = {
    "real": (lambda z: apply("real", z),
             lambda z, v: apply("complex", v, apply("imag", _operand(z)),
                                _torch_name="CopySlices")),
    "imag": (lambda z: apply("imag", z),
             lambda z, v: apply("complex", apply("real", _operand(z)), v,
                                _torch_name="CopySlices")),
    "view_as_real": (_pairs, _joined),
}


def _scatter(base: Tensor, op: str, attrs: dict, value: Tensor) -> Tensor:
    """``base`` with ``value`` in place of its view ``op[attrs]`` (a new tensor; its node is
    torch's CopySlices: what a tensor written through a view of it shows)."""
    if op in VALUE_VIEWS:
        return VALUE_VIEWS[op][1](base, value)
    if op == "unfold":
        return into_windows(_operand(base), attrs["dim"], attrs["size"], attrs["step"], value)
    if op in ("reshape", "expand"):
        return apply("reshape", value, shape_to=base.shape, _torch_name="CopySlices")
    if op == "permute":
        return apply("permute", value, perm=inverse_permutation(attrs["perm"]),
                     _torch_name="CopySlices")
    window = tuple(slice(*t) for t in zip(attrs["starts"], attrs["stops"], attrs["steps"]))
    mask = np.zeros(base.shape, np.bool_)
    mask[window] = True
    spread = apply("unslice", value, shape_to=base.shape, **attrs)
    return apply("where", Tensor(mask, None), spread, _operand(base), _torch_name="CopySlices")


def _set(t: Tensor, value: Tensor) -> None:
    if t._value is not None and value._value is not None:
        if t._value.flags.writeable:
            np.copyto(t._value, value._value)   # eagerly in place: NumPy views of it see it
        else:
            t._value = value._value
    else:
        t._value, t._node = value._value, value.node
    if value._requires_grad:
        t._requires_grad, t.grad_fn = True, value.grad_fn


def _refresh_views(t: Tensor) -> None:
    """Recompute the live tensors that view ``t`` from its new data (and their views)."""
    if not t._views:
        return
    for view in [v for v in (r() for r in t._views) if v is not None]:
        _, op, attrs = view._view
        if op == "alias":
            fresh = Tensor(t._value, t._node)
        elif op in VALUE_VIEWS:
            fresh = VALUE_VIEWS[op][0](t)
        elif op == "unfold":
            fresh = shown_as(windows(t, attrs["dim"], attrs["size"], attrs["step"]),
                             "AsStridedBackward0", t)     # torch's node of a rebuilt view
        else:
            fresh = apply(op, t, **attrs)
            if t._views[-1]() is fresh:      # a temporary, not a view to keep up to date
                t._views.pop()
        if view._requires_grad and not fresh._requires_grad:   # under no_grad: data only
            fresh = Tensor(fresh._value, fresh._node)
            fresh._requires_grad, fresh.grad_fn = True, view.grad_fn
        _set(view, fresh)
        _refresh_views(view)


def _binary(fn, name):
    ufunc = _UFUNCS.get(name)

    def method(self, other, *, alpha=None):
        if alpha is None and ufunc is not None and _direct(self, other):
            ufunc(self._value, other._value, out=self._value)   # (what ``update`` would do)
            self._vc[0] += 1
            return self
        # (no gradient, one buffer for the tensor and its views: written there, not scattered
        # into the tensor it views and every view computed again; ``N[i, j] += 1``)
        if alpha is None and eager_writes.plain(self, other) and \
                eager_writes.update(self, fn(self, other)):
            return self
        other = other if alpha is None else F.mul(other, alpha)
        return update(self, lambda s: fn(s, other), name)
    method.__name__ = name
    return method


# An optimizer's update (``p -= lr * p.grad`` under no_grad) at NumPy's speed: the updates
# whose result ``update`` would compute by this ufunc and copy into ``t``'s array.
_UFUNCS = {"add_": np.add, "sub_": np.subtract, "mul_": np.multiply}
_FLOATS = (dtypes.float32, dtypes.float64)


def _direct(t: Tensor, other) -> bool:
    """Whether ``t op= other`` may be written straight into ``t``'s array: no autograd (grad
    mode off, or neither requires grad), no trace or captured step, no view either way, one
    float dtype and shape."""
    return (type(other) is Tensor and (not grad_mode._local.enabled or not t._requires_grad
                                       and not other._requires_grad)
            and t.dtype is other.dtype and t.dtype in _FLOATS and t._view is None
            and other._view is None and t.shape == other.shape
            and lazy.STATE.region is None and sources.current() is None
            and t._value is not None and other._value is not None
            and t._value.flags.writeable and not has_views(t))


add_ = _binary(F.add, "add_")
sub_ = _binary(F.sub, "sub_")
mul_ = _binary(F.mul, "mul_")
div_ = _binary(F.div, "div_")
pow_ = _binary(F.pow, "pow_")


def _assign(self: Tensor, src, name: str, torch_name: str, shown=None) -> Tensor:
    """Set every element to ``src`` broadcast to this shape and cast to this dtype (whatever
    the categories, as torch's fill_ and copy_ do: 0.5 fills an int64 tensor with 0); the
    gradient goes to ``src``, and zero to what was there before. ``shown``: the edges of
    torch's node among (condition, src, self)."""
    if eager_writes.plain(self, src) and eager_writes.set_window(
            self, (slice(None),) * self.ndim, tuple(self.shape),
            src if isinstance(src, Tensor) else as_tensor(src, self.dtype)):
        return self    # (no gradient, one buffer: ``eager_writes``; ``p.grad.zero_()``)

    def compute(s):
        every = full(s, True, dtype=dtypes.bool_)
        return apply("where", every, as_tensor(src, s.dtype), s, _torch_name=torch_name,
                     _shown=shown)
    return update(self, compute, name)


def fill_(self: Tensor, value) -> Tensor:
    """torch's fill_.Scalar (FillBackward2, an edge for self) or fill_.Tensor (FillBackward3:
    self and the value)."""
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.ndim} dimensions.")
        if value._requires_grad and not self.dtype.is_differentiable and \
                grad_mode.is_grad_enabled():
            return update(self, lambda s: _filled_integers(s, value), "fill_")
        return _assign(self, value, "fill_", "FillBackward3", (2, 1))
    if self.dtype.is_integer and isinstance(value, (int, float)):
        check_fits(value, self.dtype)
    return _assign(self, value, "fill_", "FillBackward2", (2,))


def _filled_integers(s: Tensor, value: Tensor) -> Tensor:
    """An integer tensor filled with a value that requires grad: torch records FillBackward3
    on it all the same (it requires grad); the value's gradient is the cotangent's sum."""
    with grad_mode.no_grad():
        out = apply("where", full(s, True, dtype=dtypes.bool_), as_tensor(value, s.dtype), s)
    return attach_function(out, "FillBackward3", lambda g, o, ins: (
        None, apply("cast", F.sum(g), dtype=ins[1].dtype)), [s, value], saves=False,
        uses_out=False)


def zero_(self: Tensor) -> Tensor:
    return _assign(self, 0, "zero_", "ZeroBackward0", (2,))


def copy_(self: Tensor, src, non_blocking: bool = False) -> Tensor:
    """``src`` written into self (``non_blocking`` has no effect on the CPU)."""
    return _assign(self, src, "copy_", "CopyBackwards")


def clamp_(self: Tensor, min=None, max=None) -> Tensor:  # noqa: A002
    if eager_writes.plain(self, min, max) and eager_writes.update(self, F.clamp(self, min, max)):
        return self
    return update(self, lambda s: F.clamp(s, min, max), "clamp_")


METHODS = {"add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_, "pow_": pow_,
           "fill_": fill_, "zero_": zero_, "copy_": copy_, "clamp_": clamp_,
           "__iadd__": add_, "__isub__": sub_, "__imul__": mul_, "__itruediv__": div_,
           "__ipow__": pow_}

