"""The ``Builder`` backward rules build with (``ops.registry``), over front-end tensors.

Layer: front end, above ``apply``; the engine, the reductions' rules (``shown``) and the
transforms (``vmap``'s batching rules) pass ``BUILDER`` to the ops' rules. Input: a rule's
ops (``b.op(name, ...)``), fills and constants. Output: tensors, eager or traced, as
``apply`` makes them; a movement op of an eager cotangent that records nothing is made
without ``apply``'s checks (``ruled``).
"""

from __future__ import annotations

from typing import Any

from ...ops import OPS
from ...ops.registry import MOVEMENT
from . import grad_mode
from .apply import _RECORDING, CAPTURING, WATCH, apply, constant_value, full
from .tensor import Tensor
from .view_links import register_view


def ruled(name: str, *args: Any, **attrs: Any) -> Tensor:
    """``apply`` for an op a backward rule builds (``BUILDER.op``): a movement op of an eager
    cotangent that records nothing (no grad, no trace, no capture watching: the engine's
    pass, not ``create_graph``) is the view ``apply`` makes, without its checks, which a
    rule's operands and attributes pass by construction; the rest is ``apply``'s."""
    op = OPS[name]
    if op.kind == MOVEMENT and len(args) == 1 and not CAPTURING[0] and not WATCH[0]:
        x = args[0]
        if x.__class__ is Tensor and x._value is not None and not (
                x._requires_grad and grad_mode._local.enabled) and \
                _RECORDING.recording is None and "_torch_name" not in attrs and \
                "_shown" not in attrs:
            out = Tensor(op.numpy(x._value, **attrs), None)
            register_view(out, x, name, attrs)
            return out
    return apply(name, *args, **attrs)


class _Builder:
    """The op registry's ``Builder`` over front-end tensors (see ``ops.registry``)."""

    __slots__ = ()
    op = staticmethod(ruled)
    full = staticmethod(full)
    constant_value = staticmethod(constant_value)


BUILDER = _Builder()
