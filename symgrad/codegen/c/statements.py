"""Function-scope statements -> C: a 0-d elementwise node's local (``ScalarStmt``) and one
element written or added in place (``ElementStmt``).

Layer: codegen (the ``statements`` kernel family). Input: the statement and the module being
generated. Output: one line ending in a comment naming the op and the user's ``file.py:line``,
after the user's whole source line when it differs from the previous statement's.
"""

from __future__ import annotations

from ...lower.loopir import ElementStmt, Scalar, ScalarStmt
from .emitted import Emitted
from .exprs import c_statement
from .loops import operand
from .text import comment_text, where


def emit(ctx, number: int, k) -> Emitted:
    if type(k) is ScalarStmt:
        return Emitted(_scalar(k, ctx.last_loc, ctx.loops.calls), statement=True,
                       defines=(Scalar(k.name, k.expr.dtype),),
                       uses=frozenset(a.name for a in k.args if type(a) is Scalar))
    assert type(k) is ElementStmt, k
    uses = frozenset((k.value.name,)) if type(k.value) is Scalar else frozenset()
    return Emitted(_element(k, ctx.last_loc), statement=True, uses=uses)


def _scalar(k: ScalarStmt, last_loc: list, calls: set) -> str:
    """One line at function scope; the user's source line is shown when it changes. The
    functions it calls are added to ``calls``."""
    text, called = c_statement(k.expr, [a.name if type(a) is Scalar else operand(a, [])
                                        for a in k.args])
    calls.update(called)
    return _line(f"    const {k.expr.dtype.ctype} {k.name} = {text};  /* ", k.loc, k.expr.op,
                 last_loc)


def _element(k: ElementStmt, last_loc: list) -> str:
    """``out[i] += value;`` (or ``=``) at function scope: a step of an accumulation."""
    target = f"{k.target.buffer.name}[{k.target.offset}]"
    value = k.value.name if type(k.value) is Scalar else operand(k.value, [])
    return _line(f"    {target} {'+=' if k.accumulate else '='} {value};  /* ", k.loc, k.op,
                 last_loc)


def _line(line: str, loc, op: str, last_loc: list) -> str:
    """A statement line ending in its comment (``file.py:3 [op]``), after the user's whole
    source line when that changed since the previous statement."""
    if loc is None:
        return f"{line}[{op}] */"
    line = f"{line}{where(loc.file, loc.line)} [{op}] */"
    if (loc.file, loc.line, loc.note) != last_loc[0]:
        last_loc[0] = (loc.file, loc.line, loc.note)
        return f"    /* {comment_text(f'{loc}: {loc.text}')} */\n{line}"
    return line
