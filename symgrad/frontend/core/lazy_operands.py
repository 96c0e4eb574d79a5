"""How a captured region keys its operands: its own results by number, tensors from outside
("externals") by order of first use and their metadata, Python numbers by type and exact value.

Layer: front end, above ``lazy_state`` and ``pending``, below the recorder (``lazy``, which
re-exports these names for its other modules) and the eager shortcuts that must not skip a
step's own ops (``in_step``: a copy, a row gather of ``functions``). Input: the open region
and an operand. Output: the operand's spec in an op's key; an external's value as of its
first use (copied where someone else could change it).
"""

from __future__ import annotations

import sys

import numpy as np

from ... import dtypes
from .lazy_ops import Uncapturable
from .lazy_state import STATE, Region
from .pending import PendingTensor, RAW, ReplayedTensor, index_of
from .tensor import Tensor

_VALUE = RAW["_value"]
_getrefcount = sys.getrefcount
# The dtypes a captured tensor may have (the compiled code's own; others: not captured).
_DTYPES = frozenset((dtypes.float32, dtypes.float64, dtypes.int64, dtypes.bool_))


def _operand(reg: Region, a) -> object:
    """The spec of an operand: a region's result by number, an external by ``-1 - slot``, a
    Python number as ``(type, exact value)``."""
    if isinstance(a, Tensor):
        index = local_index(reg, a)
        if index is not None:
            return index
        slot = reg.ext_ids.get(id(a))
        if slot is None:
            slot = _external(reg, a)
        return -1 - slot
    kind = type(a)
    if kind is float:
        return (float, a.hex())
    if kind is int or kind is bool:
        return (kind, a)
    if a is None:
        return None
    raise Uncapturable(f"an operand of type {kind.__name__}")


def in_step(*tensors: Tensor) -> bool:
    """Whether one of ``tensors`` is a result of the open region (pending or recorded): an
    eager shortcut that skips ``apply`` (a copy, a row gather) must not be taken for it, or
    the recorded step and its replay, where the operand is pending, would differ."""
    reg = STATE.region
    if reg is None:
        return False
    for t in tensors:
        if local_index(reg, t) is not None:
            return True
    return False


def local_index(reg: Region, t: Tensor) -> int | None:
    """``t``'s number among the region's results (None: it is not one)."""
    if type(t) is PendingTensor:
        return index_of(t)
    hit = reg.ids.get(id(t))
    return hit[0] if hit is not None and hit[1]() is t else None


def _external(reg: Region, t: Tensor, meta: tuple | None = None) -> int:
    """Make ``t`` the region's next external (``meta``: its ``external_meta``, if known)."""
    if meta is None:
        meta = external_meta(t)
    value = _VALUE.__get__(t, Tensor)
    slot = len(reg.ext)
    reg.ext.append(t)
    reg.ext_ids[id(t)] = slot
    # Its value as of now: the region computes later. Ops that update tensors in place end
    # the region first (``close``); an array someone else holds (a NumPy array the tensor
    # shares, a view's base) could change without one, so it is copied.
    reg.arrays.append(value if _getrefcount(value) <= 3 and value.base is None
                      else np.array(value))
    reg.ext_meta.append(meta)
    return slot


def external_meta(t: Tensor) -> tuple:
    """What an external tensor's keys hold of it (Uncapturable: it cannot be one)."""
    if _VALUE.__get__(t, Tensor) is None:
        raise Uncapturable("a traced tensor")
    if t.dtype not in _DTYPES:
        raise Uncapturable(f"a {t.dtype.name} tensor")
    leaf = type(t) is not ReplayedTensor and t.grad_fn is None
    if t._requires_grad and not leaf:
        # a graph made before the step: the gradient would flow into it, which the compiled
        # step cannot do. The region ends here, so that the next one starts with the next
        # step (``float(loss.sum())`` after a ``backward()`` would otherwise begin a region
        # holding every later step).
        raise Uncapturable("a tensor that requires grad from before the step")
    return (t.shape, t.dtype, t._requires_grad, leaf, t._strides, t._weak, t._view is not None,
            t._creation)
