"""In-place updates while eager capture is on: where the open region must end first (and a
change of ``requires_grad`` on what it read).

Layer: front end, above the recorder (``lazy``), below the functions that update tensors in
place (``inplace``, ``keywords``, ``methods``, ``view_updates``, the optimizers' ``kernels``).
Input: a call of one of them. Output: the same call, run after the open region ended (its
recorded ops, pending or not, computed from the values of before the update, as eager ops
were), its own ops unrecorded.

A tensor apart from the region (a fresh ``empty()`` a random draw fills in place: dropout's
mask, a VAE's noise) changes nothing the region reads, so its update leaves the region open,
and a step that draws random numbers mid-way can run compiled: the draw stays eager, in
program order, and its tensor is an input of the step like any other.
"""

from __future__ import annotations

import functools
import sys

from .lazy import STATE, WATCH, close, local_index, paused
from . import tensor as tensor_mod
from .tensor import Tensor
from .view_links import has_views

_getrefcount = sys.getrefcount


def updates(fn, target_first: bool = False):
    """Decorate a function that updates a tensor in place (or rebinds its value): under
    capture, the open region ends first, and the update's own ops are not recorded.
    ``target_first``: the first argument is the tensor updated, and one apart from the
    region (``apart``) leaves it open."""
    @functools.wraps(fn)
    def update(*args, **kwargs):
        if not WATCH[0]:
            return fn(*args, **kwargs)
        reg = STATE.region
        if reg is not None and not (target_first and apart(reg, args[0])):
            close(None)
        with paused():
            return fn(*args, **kwargs)
    return update


def updates_target(fn):
    """``updates`` of a function whose first argument is the tensor it updates."""
    return updates(fn, True)


def apart(reg, t) -> bool:
    """Whether ``t`` shares nothing with the region ``reg``: not a result or input of it, no
    view or viewed tensor, an array no one else holds (not even a NumPy view of it)."""
    if type(t) is not Tensor or t._view is not None or has_views(t) or id(t) in reg.ext_ids \
            or local_index(reg, t) is not None:
        return False
    value = t._value
    # (referrers: the tensor's slot, this name, the call's argument)
    return value is not None and value.base is None and _getrefcount(value) <= 3


def _flag_changed(t: Tensor) -> None:
    """``t.requires_grad_()`` changes what an open region keyed ``t`` by: it ends first."""
    reg = STATE.region
    if reg is not None and WATCH[0] and (id(t) in reg.ext_ids
                                         or local_index(reg, t) is not None):
        close("requires_grad changed on a tensor the step read")


tensor_mod.FLAG_CHANGE[0] = _flag_changed
