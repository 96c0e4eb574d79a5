"""In-place writes of eager tensors that need none of ``inplace.update``'s rules: straight into
the NumPy buffer they share with their views.

Layer: front end, below ``inplace`` (an in-place op on a view: ``N[i, j] += 1``) and
``indexing`` (``x[i, 1:3] = v``), above ``apply``. Input: the tensor written, the new value (an
op's result, or a value for a window of it). Output: True when written here -- the values, the
shared version counter bumped once, as the general path leaves them -- else False, and the
caller takes the general path.

The general path treats an update functionally: the new value of the tensor a view shows is
computed by ops (the view's window scattered into it), then every live view of it is computed
again from it. That is what a graph needs (autograd through the update, a trace, a captured
step); an eager update with no gradient involved needs none of it when every tensor of the
family (the root the views come from, and its live views, recursively) holds a NumPy view of
one buffer: a write into the buffer is seen by all of them, as in torch's shared storage.
Where a family member holds a copy (a reshape NumPy could not view), the general path runs.
"""

from __future__ import annotations

import numpy as np

from ..core import grad_mode, lazy, sources
from ..core.tensor import Tensor

_copyto = np.copyto


def _buffer(a: np.ndarray) -> np.ndarray:
    return a if a.base is None else a.base


def _shares(t: Tensor, buffer: np.ndarray) -> bool:
    """Whether ``t`` and its live views (recursively) hold NumPy views of ``buffer``."""
    a = t._value
    if a is None or t.__class__ is not Tensor or (a is not buffer and a.base is not buffer):
        return False
    for ref in t._views or ():
        view = ref()
        if view is not None and not _shares(view, buffer):
            return False
    return True


def plain(t: Tensor, *others) -> bool:
    """Whether an update of ``t`` (by ``others``, tensors or numbers) may write straight into
    its buffer: eager, no gradient involved either way, no trace, no captured step open, a
    writeable array, every tensor showing ``t``'s data a view of one buffer."""
    if t.__class__ is not Tensor or t._requires_grad or lazy.STATE.region is not None or \
            sources.current() is not None:
        return False
    for other in others:
        if isinstance(other, Tensor) and (other._value is None or other._requires_grad and
                                          grad_mode._local.enabled):
            return False
    a = t._value
    if a is None or not a.flags.writeable:
        return False
    root = t
    while root._view is not None:
        root = root._view[0]
    return root._value is not None and _shares(root, _buffer(root._value))


def write(t: Tensor, value: np.ndarray) -> None:
    """Write ``value`` (of ``t``'s shape, cast as torch's copy casts) into ``t``'s buffer."""
    _copyto(t._value, value, casting="unsafe")
    t._vc[0] += 1


def update(t: Tensor, result: Tensor) -> bool:
    """``t`` updated in place to ``result`` (an op's out-of-place result, no graph) if it has
    ``t``'s dtype and shape; False: the general path decides (a cast it refuses, a shape)."""
    if result.dtype is not t.dtype or result._requires_grad or result._value is None or \
            result.shape != t.shape:
        return False
    write(t, result._value)
    return True


def _expands(source: tuple, target: tuple) -> bool:
    """Whether ``source`` expands to ``target`` (each trailing dim 1 or equal)."""
    return all(s == 1 or s == t for s, t in zip(reversed(source), reversed(target)))


def set_window(x: Tensor, window: tuple, shape: tuple, value) -> bool:
    """``x[window] = value`` (``window``: slices, an int kept as a slice of one; ``shape``: the
    view's shape torch shows) where ``value`` is an eager tensor of a real dtype that expands
    to ``shape`` as torch's ``copy_`` expands its source; False: the general path."""
    if not isinstance(value, Tensor) or value.dtype.is_complex or x.dtype.is_complex:
        return False
    v = value._value
    if v is None or v.ndim > len(shape) or not _expands(v.shape, shape):
        return False
    dst = x._value[window + (Ellipsis,)].reshape(shape)   # (``...``: a view, 0-d too)
    if dst.base is None:   # (a copy: NumPy could not view the window so)
        return False
    _copyto(dst, v, casting="unsafe")
    x._vc[0] += 1
    return True
