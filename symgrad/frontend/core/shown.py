"""Results whose backward node is the one torch shows, though symgrad builds them in more steps:
a cast hidden inside the op's node (``cast_inside``), a reduction whose dropped dims are a
reshape torch does not show (``apply_reduction``), and a result whose last node torch names
otherwise, because torch reaches the same values in other steps (``shown_as``).

Layer: front end, above ``apply`` and ``lazy_state`` (whether a captured step is open: an
eager reduction with no node to record is one kernel call, ``eager_reduction``). Input: a
result tensor and its target dtype, a reduction op, a tensor and its axes, or a result and
torch's name for its last node. Output: the tensor, with one backward function as torch's.
"""

from __future__ import annotations

import warnings

import numpy as np

from ... import dtypes
from ...ops import OPS
from ...ops.reduce import FLOAT_KERNELS
from . import grad_mode, sources
from .apply import CAPTURING, WATCH, apply, attach_function, eager_value
from .builder import BUILDER, ruled
from .lazy_state import STATE
from .backward_graph import BackwardFunction, function_class
from .tensor import Tensor


def cast_inside(out: Tensor, dtype) -> Tensor:
    """``out`` cast to ``dtype``, the cast hidden inside ``out``'s backward function: an
    in-place op on a tensor of a narrower type (``f32.add_(f64)``) computes in the promoted
    type and writes into the tensor's, and torch shows its node (AddBackward0), not a cast's;
    that node takes the cotangent in the tensor's type, and its derivative formula computes
    with it as it is (``x16.mul_(y32)``: ``y``'s gradient is ``g16 * x16``, a float16
    product, cast to float32 at the end)."""
    fn = out.grad_fn
    if fn is None or fn._n_outputs != 1 or not grad_mode._local.enabled:
        return apply("cast", out, dtype=dtype)
    with grad_mode.no_grad():
        result = apply("cast", out, dtype=dtype)
    out_ = None if fn._out is None else (result._value, result._node)   # torch's result
    inner = function_class(type(fn).__name__)(fn._rule, fn._attrs, fn._saved, out_, fn._saves,
                                              fn._edges, fn._input_meta, fn.loc, fn._shown)
    inner._versions, inner._complex = fn._versions, fn._complex
    inner._holomorphic, inner._conj_saved = fn._holomorphic, fn._conj_saved
    inner._keeps = fn._keeps
    result._requires_grad = True
    result.grad_fn = inner
    return result


def apply_reduction(name: str, x: Tensor, axes: tuple, keepdim: bool,
                    torch_name: str | None = None) -> Tensor:
    """Reduction op ``name`` over ``axes``, the reduced dims dropped unless ``keepdim``.

    The primitive keeps reduced dims (size 1); dropping them is a reshape, which torch does
    not show: the result gets one backward function (the op's rule applied to the cotangent
    with the dims put back), so ``s.grad_fn.next_functions`` is what torch prints."""
    op = OPS[name]
    if not (x._requires_grad and grad_mode._local.enabled) and unrecorded(x):
        out = eager_reduction(op, x, axes, keepdim)
        if out is not None:
            return out
    if keepdim or op.vjp is None or not (x._requires_grad and grad_mode._local.enabled):
        out = apply(name, x, axes=axes, _torch_name=torch_name)
        return out if keepdim else apply("reshape", out, shape_to=_dropped(x.shape, axes))
    with grad_mode.no_grad():
        out = apply("reshape", apply(name, x, axes=axes), shape_to=_dropped(x.shape, axes))
    kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))

    def rule(g, o, ins):   # (the output only for a rule that reads it)
        return op.vjp(BUILDER, ruled("reshape", g, shape_to=kept),
                      ruled("reshape", o, shape_to=kept) if op.uses_out else None, ins,
                      axes=axes)
    return attach_function(out, torch_name or op.torch_name, rule, [x], saves=op.saves,
                           uses_out=op.uses_out)


def unrecorded(x: Tensor) -> bool:
    """Whether an op on ``x`` that records no backward node is recorded nowhere else either:
    ``x`` is a plain eager tensor, and no compile trace and no captured step is open (its
    result may then be computed without ``apply``). The caller decides about grad."""
    return x.__class__ is Tensor and x._value is not None and not CAPTURING[0] and \
        not (WATCH[0] and STATE.region is not None) and sources._local.recording is None


# An overflow to inf in a float reduction is silent, as in torch (``fast_eager`` says why a
# filter, not np.errstate).
warnings.filterwarnings("ignore", category=RuntimeWarning,
                        module=r"symgrad\.frontend\.core\.shown$")

# The dtypes ``eager_reduction`` takes (the others' results go through ``apply``'s casts).
_REDUCED = frozenset((dtypes.float32, dtypes.float64, dtypes.int64, dtypes.bool_))


def eager_reduction(op, x: Tensor, axes: tuple, keepdim: bool) -> Tensor | None:
    """Reduction ``op`` over ``axes`` of eager ``x``, with no node to record (the caller
    knows: no grad, no trace, no captured step open), in one step: the kernel ``apply`` runs,
    the reduced dims dropped at once (unless ``keepdim``), not by a reshape op of its own.
    None: the general path (a traced ``x``, another dtype)."""
    value = x._value
    if value is None or not value.size or x.dtype not in _REDUCED:   # (no elements: the
        return None                                                  # op's own errors)
    kernel = FLOAT_KERNELS.get(op.name)
    if kernel is not None and (x.dtype is dtypes.float32 or x.dtype is dtypes.float64):
        try:
            out = kernel(value, axis=axes, keepdims=keepdim)
        except (FloatingPointError, RuntimeWarning):   # (a user's np.seterr(all="raise"))
            pass
        else:
            return Tensor(out if type(out) is np.ndarray else np.asarray(out), None)
    attrs = {"axes": axes}
    out = eager_value(op, [x], attrs, op.dtype(x.dtype, **attrs))
    return Tensor(out if keepdim else out.reshape(_dropped(x.shape, axes)), None)


def total(name: str, x) -> Tensor | None:
    """``x.sum()``/``x.max()``... over every element by ``eager_reduction``, where it applies
    (``x`` a plain eager float32/float64 tensor, no node to record anywhere), before the
    function's argument handling; None: the caller's general path. The reduction of a whole
    tensor is much of a NumPy-style loop."""
    if x.__class__ is not Tensor or (x.dtype is not _F32 and x.dtype is not _F64) or \
            x._requires_grad and grad_mode._local.enabled or not unrecorded(x):
        return None
    return eager_reduction(OPS[name], x, tuple(range(len(x.shape))), False)


_F32, _F64 = dtypes.float32, dtypes.float64


def _dropped(shape: tuple, axes: tuple) -> tuple:
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def shown_as(out: Tensor, torch_name: str, *inputs: Tensor) -> Tensor:
    """``out`` (a new result, not one of ``inputs``) with its last backward node shown as
    ``torch_name``: the same rule and edges, under the class torch's own composition of the op
    ends with (einsum's ``MulBackward0``, an index op of a 0-d tensor computed on it as a
    vector). Nodes of several outputs and custom Functions keep their class."""
    fn = out.grad_fn
    if fn is None or type(fn).__bases__ != (BackwardFunction,) or \
            any(out is t for t in inputs) or type(fn).__name__ == torch_name:
        return out
    fn.__class__ = function_class(torch_name)   # the same slots: a class of the same layout
    return out
