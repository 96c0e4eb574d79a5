"""Which tensors show another tensor's data: torch's views, as links between tensors.

Layer: front end, above ``tensor`` and ``grad_mode``, below ``apply``. Input: a new view and
its base (or the views one op returned together). Output: the links ``inplace.update`` follows
(``Tensor._view``, the base's ``_views``, one shared version counter) and torch's creation mark
of the views whose in-place updates it forbids (``Tensor._creation``).
"""

from __future__ import annotations

import weakref

from . import grad_mode
from .tensor import Tensor


def mark_multi_views(views: tuple) -> tuple:
    """Mark the views one op returned together (``split``, ``unbind``, ``chunk``) in grad
    mode: torch's autograd forbids updating them in place where the update would be recorded
    (``inplace.update``), and so views of them (torch's MULTI_OUTPUT_NODE creation meta).
    torch also forbids recorded updates of views made under ``no_grad``; symgrad does not
    track those (its own ops use ``no_grad`` inside, so the mode a view was made in is not
    the user's)."""
    if grad_mode.is_grad_enabled():
        for v in views:
            v._creation = "multi"
    return views


def has_views(t: Tensor) -> bool:
    """Whether a tensor that shows ``t``'s data is alive; dead references are dropped (an
    eager step's transposes of a weight: without this, its optimizer update would take the
    general path for as long as the program runs)."""
    views = t._views
    if not views:
        return False
    for ref in views:
        if ref() is not None:
            return True
    t._views = None
    return False


def register_view(view: Tensor, base: Tensor, op: str, attrs: dict) -> None:
    """``view`` shows ``base``'s data, as torch's views do: ``op`` is a movement op (reshape,
    permute, expand, slice) of ``base`` or "alias" (``detach``). They share one version
    counter, and an in-place update of either reaches the other (``inplace.update``), eagerly
    and at trace time alike."""
    view._view = (base, op, attrs)
    view._vc = base._vc
    if base._creation is not None and op != "alias" and grad_mode.is_grad_enabled():
        view._creation = base._creation   # a view of a view ``mark_multi_views`` marked
    views = base._views
    if views is None:
        base._views = [weakref.ref(view)]
        return
    n = len(views)
    if n >= 8 and n & (n - 1) == 0:   # at each power of two, drop the dead: amortized O(1)
        views[:] = [r for r in views if r() is not None]
    views.append(weakref.ref(view))
