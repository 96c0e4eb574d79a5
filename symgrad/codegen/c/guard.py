"""A guard -> C: ``if (value != expect) return <status>;``, the status naming the guard.

Layer: codegen (the ``guard`` kernel family). Input: a ``GuardKernel``. Output: the check, after
a comment with the user's source line (``codegen.c.control`` defines the statuses).
"""

from __future__ import annotations

from ...lower.loopir import Scalar
from ..backend import GUARD_STATUS
from .emitted import Emitted
from .loops import operand
from .text import comment_text


def emit(ctx, number: int, k) -> Emitted:
    expect = "1" if k.expect else "0"
    text = (f"    if (({operand(k.value, [])}) != {expect}) return {GUARD_STATUS + k.number};  "
            f"/* guard {k.number} */")
    if k.loc is not None:
        text = f"    /* {comment_text(f'{k.loc}: {k.loc.text}')} */\n{text}"
    uses = frozenset((k.value.name,)) if type(k.value) is Scalar else frozenset()
    return Emitted(text, statement=True, uses=uses)
